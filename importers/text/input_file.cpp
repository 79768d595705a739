#include "importers/text/input_file.h"

#include "model/error.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

namespace {
gzFile asGz(void* p) { return static_cast<gzFile>(p); }
}  // namespace

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
    unsigned char magic[2] = {0, 0};
    m_compressed = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    m_gz = gzdopen(fd, "rb");
    if (!m_gz) {
        ::close(fd);
        throw Error(m_path + ": cannot open");
    }
    gzbuffer(asGz(m_gz), static_cast<unsigned>(std::clamp<std::size_t>(buffer, 64, kDefaultBuffer)));
}

InputFile::~InputFile() {
    if (m_gz) gzclose(asGz(m_gz));
}

std::size_t InputFile::read(char* into, std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) n = static_cast<std::size_t>(INT_MAX);
    const int got = gzread(asGz(m_gz), into, static_cast<unsigned>(n));
    int err = Z_OK;
    const char* msg = gzerror(asGz(m_gz), &err);
    if (got < 0 || (err != Z_OK && err != Z_STREAM_END)) {
        throw Error(m_path + ": byte " + std::to_string(m_offset) + " (decompressed): " +
                    (m_compressed ? "the gzip stream is damaged or cut short (" + std::string(msg) + ")"
                                  : "read error (" + std::string(msg) + ")"));
    }
    m_offset += static_cast<std::uint64_t>(got);
    return static_cast<std::size_t>(got);
}

std::uint64_t InputFile::consumed() const {
    const z_off_t off = gzoffset(asGz(m_gz));
    return off < 0 ? 0 : static_cast<std::uint64_t>(off);
}

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
