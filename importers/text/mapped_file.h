#pragma once
// A plain regular file mapped into memory whole, read in place: a gigabyte trace is scanned
// where the page cache holds it, not copied through a buffer first (a fifth of the time of a
// Kineto import went to that copy). The mapping is followed by at least a page of readable
// zero bytes, the padding a SIMD scan and simdjson read past the end.
#include <cstddef>
#include <memory>
#include <string>

namespace faultline {

class MappedFile {
public:
    // nullptr when the file cannot be mapped (not a regular file, empty, or the mapping
    // refused): the caller reads it the ordinary way, which says what is wrong.
    static std::unique_ptr<MappedFile> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    // Bytes readable from data(): the size and the padding after it.
    std::size_t readable() const { return m_length; }
    // The pages before `offset` will not be read again: they leave this process's memory
    // (they stay in the page cache), so that memory follows what is kept, not the file size.
    void release(std::size_t offset);

private:
    MappedFile(char* data, std::size_t size, std::size_t length) : m_data(data), m_size(size), m_length(length) {}
    char* m_data;
    std::size_t m_size;
    std::size_t m_length;
    std::size_t m_released = 0;
};

}  // namespace faultline
