#pragma once
// A file read in chunks, plain or compressed (gzip, zstd, xz, bzip2: told by their magic
// numbers), so that no importer needs the whole file in memory. UTF-16 with a byte order mark
// is read as UTF-8, and a UTF-8 byte order mark is dropped. Errors name the file.
#include "importers/text/byte_source.h"
#include "importers/text/text_encoding.h"

#include <cstdint>
#include <memory>
#include <optional>
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

    // Reads up to `n` decompressed (and, for UTF-16, converted) bytes; 0 at the end. A
    // damaged or truncated stream throws Error naming the file and the offset reached.
    std::size_t read(char* into, std::size_t n);

    // A plain file that grew since read() met its end (growing_console_log.h): opened again
    // where it was left, so the next read() goes on with what was written since.
    void readOnPastTheEnd();
    // Closes the file until readOnPastTheEnd(): a followed folder's thousands of logs hold no
    // descriptor between looks.
    void close() { m_source.reset(); }

    const std::string& path() const { return m_path; }
    std::uint64_t size() const { return m_size; }             // on disk
    std::uint64_t consumed() const;                            // on-disk bytes read so far
    std::uint64_t decompressedOffset() const { return m_offset; }
    bool compressed() const { return m_compression != Compression::None; }
    Compression compression() const { return m_compression; }
    // "UTF-16LE" / "UTF-16BE" when the file was converted; "" for UTF-8 (or ASCII).
    const char* encodingName() const;
    double progress() const;  // 0..1 of the file on disk

private:
    std::size_t readSource(char* into, std::size_t n);
    std::size_t readUtf16(char* into, std::size_t n);

    std::string m_path;
    std::unique_ptr<ByteSource> m_source;
    std::uint64_t m_size = 0;
    std::uint64_t m_offset = 0;
    std::uint64_t m_sourceOffset = 0;  // bytes the source gave: where its errors are
    Compression m_compression = Compression::None;
    std::optional<Utf16Decoder> m_utf16;
    bool m_utf16BigEndian = false;
    std::string m_pending;  // bytes read to find a byte order mark, or UTF-8 not yet handed out
    std::size_t m_pendingPos = 0;
    std::string m_raw;      // UTF-16 bytes read at a time
    std::string m_deferredError;  // met reading the first bytes: thrown by the read that reaches it
    bool m_sourceEnd = false;
};

// "is a FIFO (named pipe), not a regular file: ..." for a stat() mode that is not a regular
// file: what an input that would block or never end is told.
std::string notRegularFileText(unsigned mode);

// The first `n` decompressed bytes of a file (fewer if it is shorter), for format detection.
std::string readHead(const std::string& path, std::size_t n);

}  // namespace faultline
