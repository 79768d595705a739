#include "importers/text/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return nullptr;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        ::close(fd);
        return nullptr;
    }
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto size = static_cast<std::size_t>(st.st_size);
    const std::size_t length = (size + page - 1) / page * page + page;
    // Anonymous zero pages first, then the file over their start: the page after the file's
    // last one stays readable (a file mapping past its end would fault).
    void* area = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED) {
        ::close(fd);
        return nullptr;
    }
    void* file = ::mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    ::close(fd);
    if (file == MAP_FAILED) {
        ::munmap(area, length);
        return nullptr;
    }
    ::madvise(area, size, MADV_SEQUENTIAL);
    return std::unique_ptr<MappedFile>(new MappedFile(static_cast<char*>(area), size, length));
}

MappedFile::~MappedFile() { ::munmap(m_data, m_length); }

void MappedFile::release(std::size_t offset) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t upTo = offset / page * page;
    if (upTo <= m_released) return;
    ::madvise(m_data + m_released, upTo - m_released, MADV_DONTNEED);
    m_released = upTo;
}

}  // namespace faultline
