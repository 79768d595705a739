#include "review_lock.h"

#include "checked_write.h"
#include "error.h"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

ReviewLock::ReviewLock(const std::string& reviewPath) : m_path(reviewPath + ".lock") {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::absolute(m_path).parent_path(), ec);
    for (;;) {
        const int fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0) throw Error("cannot lock the review " + reviewPath + ": " + m_path + ": " + errnoText(errno));
        int rc;
        while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
        }
        if (rc != 0) {
            const int error = errno;
            ::close(fd);
            throw Error("cannot lock the review " + reviewPath + ": " + m_path + ": " + errnoText(error));
        }
        // The holder before us removes the file as it lets go: locked, it must still be the
        // file the path names, else another writer may hold the new one.
        struct stat held {}, named {};
        if (::fstat(fd, &held) == 0 && ::stat(m_path.c_str(), &named) == 0 && held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
            m_fd = fd;
            return;
        }
        ::close(fd);
    }
}

ReviewLock::~ReviewLock() {
    ::unlink(m_path.c_str());  // while still held: nobody takes a lock on it after this
    ::close(m_fd);
}

}  // namespace faultline
