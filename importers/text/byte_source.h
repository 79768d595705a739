#pragma once
// Where InputFile's bytes come from: the file through zlib (plain or gzip), or through a zstd,
// xz or bzip2 decoder. Each owns the descriptor it is given; errors name the file.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace faultline {

enum class Compression { None, Gzip, Zstd, Xz, Bzip2 };

// Told from a file's first bytes (six suffice): each format's magic number.
Compression compressionOf(std::string_view magic);
// "gzip", "zstd", "xz", "bzip2"; "" for None.
const char* compressionName(Compression c);

class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Up to `n` decompressed bytes; 0 at the end. Throws Error on a damaged stream, its
    // message saying what is wrong (the caller adds the file and offset).
    virtual std::size_t read(char* into, std::size_t n) = 0;
    virtual std::uint64_t consumed() const = 0;  // bytes of the file read so far
};

// Takes `fd`, closed with the source (also when this throws). `buffer`: bytes read from the
// file at a time.
std::unique_ptr<ByteSource> openByteSource(int fd, Compression c, std::size_t buffer);
// A plain file's bytes from `offset` on, read straight into the caller's buffer: no buffer of
// its own, for the thousands of logs a followed job's folder holds (growing_console_log.h).
std::unique_ptr<ByteSource> openPlainSource(int fd, std::uint64_t offset);

}  // namespace faultline
