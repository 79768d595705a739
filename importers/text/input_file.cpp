#include "importers/text/input_file.h"

#include "model/error.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

std::string notRegularFileText(unsigned mode) {
    const char* kind = S_ISFIFO(mode)  ? "a FIFO (named pipe)"
                       : S_ISSOCK(mode) ? "a socket"
                       : S_ISCHR(mode)  ? "a character device"
                       : S_ISBLK(mode)  ? "a block device"
                                        : "not a file";
    return std::string("is ") + kind + ", not a regular file: Faultline imports files a cluster wrote (copy the data into a file first)";
}

InputFile::InputFile(std::string path, std::size_t buffer) : m_path(std::move(path)) {
    // Opened without blocking and checked on the descriptor itself: a FIFO with no writer
    // would block open() forever, and a file swapped for one after a stat() would too.
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) throw Error(m_path + ": cannot open: no such file");
        if (err == ELOOP) throw Error(m_path + ": cannot open: a symbolic link that loops (too many levels of symbolic links)");
        if (err == EACCES) throw Error(m_path + ": cannot open: permission denied");
        throw Error(m_path + ": cannot open: " + std::strerror(err));
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        if (S_ISDIR(st.st_mode)) throw Error(m_path + ": is a folder, not a file");
        throw Error(m_path + ": " + notRegularFileText(st.st_mode));
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    m_size = static_cast<std::uint64_t>(st.st_size);
    char magic[6] = {};
    const ssize_t got = ::pread(fd, magic, sizeof magic, 0);
    m_compression = compressionOf(std::string_view(magic, got > 0 ? static_cast<std::size_t>(got) : 0));
    try {
        m_source = openByteSource(fd, m_compression, std::clamp<std::size_t>(buffer, 64, kDefaultBuffer));
    } catch (const Error& e) {
        throw Error(m_path + ": " + e.what());
    }
    // The first bytes say the text's encoding: a byte order mark, kept back to be dropped.
    // A stream damaged from its first bytes is reported by the first read, as any other.
    m_pending.resize(3);
    std::size_t have = 0;
    try {
        while (have < 3) {
            const std::size_t n = readSource(m_pending.data() + have, 3 - have);
            if (n == 0) break;
            have += n;
        }
    } catch (const Error& e) {
        m_deferredError = e.what();
    }
    m_pending.resize(have);
    const auto* b = reinterpret_cast<const unsigned char*>(m_pending.data());
    if (have >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
        m_utf16BigEndian = b[0] == 0xFE;
        m_utf16.emplace(m_utf16BigEndian);
        std::string rest;
        m_utf16->decode(std::string_view(m_pending).substr(2), rest);
        m_pending = std::move(rest);
    } else if (have == 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
        m_pending.clear();
    }
}

InputFile::~InputFile() = default;

const char* InputFile::encodingName() const {
    if (!m_utf16) return "";
    return m_utf16BigEndian ? "UTF-16BE" : "UTF-16LE";
}

void InputFile::readOnPastTheEnd() {
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw Error(m_path + ": cannot open again: " + std::strerror(errno));
    m_source.reset();
    try {
        m_source = openPlainSource(fd, m_sourceOffset);
    } catch (const Error& e) {
        throw Error(m_path + ": " + e.what());
    }
    m_sourceEnd = false;
}

std::size_t InputFile::readSource(char* into, std::size_t n) {
    if (m_sourceEnd || n == 0 || !m_source) return 0;
    std::size_t got = 0;
    try {
        got = m_source->read(into, n);
    } catch (const Error& e) {
        throw Error(m_path + ": byte " + std::to_string(m_sourceOffset) + " (decompressed): " + e.what());
    }
    m_sourceOffset += got;
    if (got == 0) m_sourceEnd = true;
    return got;
}

std::size_t InputFile::readUtf16(char* into, std::size_t n) {
    // Converted text waits in m_pending until handed out: a UTF-16 unit becomes 1 to 3 bytes.
    while (m_pendingPos == m_pending.size() && !m_sourceEnd) {
        m_pending.clear();
        m_pendingPos = 0;
        m_raw.resize(std::max<std::size_t>(2 * n / 3 + 2, 64));
        const std::size_t got = readSource(m_raw.data(), m_raw.size());
        if (got == 0) m_utf16->finish(m_pending);
        else m_utf16->decode(std::string_view(m_raw.data(), got), m_pending);
    }
    const std::size_t take = std::min(n, m_pending.size() - m_pendingPos);
    std::memcpy(into, m_pending.data() + m_pendingPos, take);
    m_pendingPos += take;
    return take;
}

std::size_t InputFile::read(char* into, std::size_t n) {
    if (!m_deferredError.empty() && m_pendingPos == m_pending.size()) {
        const std::string what = std::move(m_deferredError);
        m_deferredError.clear();
        throw Error(what);
    }
    std::size_t got = 0;
    if (m_utf16) {
        got = readUtf16(into, n);
    } else if (m_pendingPos < m_pending.size()) {
        got = std::min(n, m_pending.size() - m_pendingPos);
        std::memcpy(into, m_pending.data() + m_pendingPos, got);
        m_pendingPos += got;
    } else {
        got = readSource(into, n);
    }
    m_offset += got;
    return got;
}

std::uint64_t InputFile::consumed() const { return m_source ? m_source->consumed() : m_sourceOffset; }

double InputFile::progress() const {
    if (m_size == 0) return 1.0;
    const double p = static_cast<double>(consumed()) / static_cast<double>(m_size);
    return p > 1.0 ? 1.0 : p;
}

std::string readHead(const std::string& path, std::size_t n) {
    // The first bytes of a file (a pickle's two, in each of thousands of Flight Recorder
    // dumps) are not worth a megabyte read and copied through zlib's buffer.
    InputFile in(path, n);
    std::string out(n, '\0');
    std::size_t have = 0;
    try {
        while (have < n) {
            const std::size_t got = in.read(out.data() + have, n - have);
            if (got == 0) break;
            have += got;
        }
    } catch (const Error&) {
        // A damaged tail does not hide the format: detection works on what could be read,
        // and the importer reports the damage when it gets there.
    }
    out.resize(have);
    return out;
}

}  // namespace faultline
