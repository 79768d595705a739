#include "checked_write.h"

#include "error.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace faultline {

namespace {

int openForWriting(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw Error(path + ": cannot write: " + errnoText(errno));
    return fd;
}

// Every byte, however many calls it takes; the errno of the call that failed otherwise. A
// write that returns 0 makes no progress: counted as a full disk, which is what it means on
// the file systems that do it.
int writeAllTo(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return ENOSPC;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return 0;
}

// close() reports what a network file system could not write back.
void closeChecked(int fd, const std::string& path) {
    if (::close(fd) != 0 && errno != EINTR) throw Error(path + ": cannot write: " + errnoText(errno));
}

}  // namespace

std::string errnoText(int error) {
    std::string text = std::strerror(error);
    if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

void writeFileBytes(const std::string& path, std::string_view bytes) {
    const int fd = openForWriting(path);
    if (const int error = writeAllTo(fd, bytes.data(), bytes.size()); error != 0) {
        ::close(fd);
        throw Error(path + ": cannot write: " + errnoText(error));
    }
    closeChecked(fd, path);
}

void copyFileBytes(const std::string& from, const std::string& to) {
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) throw Error(from + ": cannot read: " + errnoText(errno));
    int out = -1;
    try {
        out = openForWriting(to);
        char buffer[1 << 16];
        for (;;) {
            const ssize_t n = ::read(in, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw Error(from + ": cannot read: " + errnoText(errno));
            if (n == 0) break;
            if (const int error = writeAllTo(out, buffer, static_cast<std::size_t>(n)); error != 0)
                throw Error(to + ": cannot write: " + errnoText(error));
        }
        const int fd = out;
        out = -1;
        closeChecked(fd, to);
    } catch (...) {
        if (out >= 0) ::close(out);
        ::close(in);
        throw;
    }
    ::close(in);
}

CheckedFileBuf::CheckedFileBuf(std::string path) : m_path(std::move(path)) {
    m_fd = openForWriting(m_path);
    setp(m_buffer, m_buffer + sizeof m_buffer);
}

CheckedFileBuf::~CheckedFileBuf() {
    if (m_fd >= 0) ::close(m_fd);
}

bool CheckedFileBuf::writeAll(const char* data, std::size_t size) {
    if (m_error != 0 || m_fd < 0) return false;
    m_error = writeAllTo(m_fd, data, size);
    return m_error == 0;
}

bool CheckedFileBuf::flushBuffer() {
    const std::size_t pending = static_cast<std::size_t>(pptr() - pbase());
    setp(m_buffer, m_buffer + sizeof m_buffer);
    return pending == 0 || writeAll(m_buffer, pending);
}

CheckedFileBuf::int_type CheckedFileBuf::overflow(int_type c) {
    if (!flushBuffer()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
}

std::streamsize CheckedFileBuf::xsputn(const char* s, std::streamsize n) {
    if (n <= epptr() - pptr()) {
        std::memcpy(pptr(), s, static_cast<std::size_t>(n));
        pbump(static_cast<int>(n));
        return n;
    }
    if (!flushBuffer() || !writeAll(s, static_cast<std::size_t>(n))) return 0;
    return n;
}

int CheckedFileBuf::sync() { return flushBuffer() ? 0 : -1; }

void CheckedFileBuf::finish() {
    flushBuffer();
    const int fd = m_fd;
    m_fd = -1;
    if (m_error != 0) {
        ::close(fd);
        throw Error(m_path + ": cannot write: " + errnoText(m_error));
    }
    closeChecked(fd, m_path);
}

}  // namespace faultline
