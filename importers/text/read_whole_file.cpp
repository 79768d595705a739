#include "importers/text/read_whole_file.h"

#include "importers/text/byte_source.h"
#include "importers/text/input_file.h"
#include "model/error.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

std::string readWholeFile(const std::string& path, std::size_t limitBytes) {
    InputFile in(path);
    std::string out;
    std::size_t have = 0;
    // A plain file is read in one go into a buffer of its size (plus one byte to see the
    // end): thousands of small dumps must not each grow a buffer megabyte by megabyte.
    const std::size_t step = in.compressed() ? std::size_t{1} << 20 : static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), limitBytes)) + 1;
    for (;;) {
        out.resize(have + step);
        const std::size_t got = in.read(out.data() + have, step);
        have += got;
        if (got == 0) break;
        if (have > limitBytes)
            throw Error(path + ": larger than " + std::to_string(limitBytes >> 20) + " MB; too large for this format");
    }
    out.resize(have);
    return out;
}

bool readPlainFile(const std::string& path, std::size_t limitBytes, std::string& into) {
    // O_NONBLOCK: a FIFO named like a dump must not block the open; fstat then refuses it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 2 && static_cast<std::uint64_t>(st.st_size) <= limitBytes;
    if (ok) {
        const auto size = static_cast<std::size_t>(st.st_size);
        // One byte more than the size: a file that grew since fstat fills it and is left to
        // readWholeFile. A file read to its size is not read again to see its end.
        into.resize(size + 1);
        std::size_t have = 0;
        while (have < size) {
            const ssize_t got = ::read(fd, into.data() + have, into.size() - have);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            have += static_cast<std::size_t>(got);
        }
        ok = have == size && compressionOf(into) == Compression::None;  // gzip, zstd, ...: decompressed by readWholeFile
        into.resize(have);
    }
    ::close(fd);
    return ok;
}

}  // namespace faultline
