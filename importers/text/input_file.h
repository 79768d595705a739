#pragma once
// A file read in chunks, plain or gzip-compressed (zlib tells them apart by the gzip magic),
// so that no importer needs the whole file in memory. Errors name the file.
#include <cstdint>
#include <string>

namespace faultline {

class InputFile {
public:
    // Throws Error when it cannot be opened. `buffer`: what zlib reads from the file at a
    // time (and, for a file that is not gzip, copies out of), a megabyte unless only a few
    // bytes are wanted.
    explicit InputFile(std::string path, std::size_t buffer = kDefaultBuffer);
    static constexpr std::size_t kDefaultBuffer = 1 << 20;
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // Reads up to `n` decompressed bytes; 0 at the end. A damaged or truncated gzip
    // stream throws Error naming the file and the offset reached.
    std::size_t read(char* into, std::size_t n);

    const std::string& path() const { return m_path; }
    std::uint64_t size() const { return m_size; }             // on disk
    std::uint64_t consumed() const;                            // on-disk bytes read so far
    std::uint64_t decompressedOffset() const { return m_offset; }
    bool compressed() const { return m_compressed; }
    double progress() const;  // 0..1 of the file on disk

private:
    std::string m_path;
    void* m_gz = nullptr;  // gzFile, kept opaque so zlib.h stays out of this header
    std::uint64_t m_size = 0;
    std::uint64_t m_offset = 0;
    bool m_compressed = false;
};

// "is a FIFO (named pipe), not a regular file: ..." for a stat() mode that is not a regular
// file: what an input that would block or never end is told.
std::string notRegularFileText(unsigned mode);

// The first `n` decompressed bytes of a file (fewer if it is shorter), for format detection.
std::string readHead(const std::string& path, std::size_t n);

}  // namespace faultline
