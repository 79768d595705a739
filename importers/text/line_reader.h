#pragma once
// Reads a text file (plain or gzip) line by line in chunks: memory stays at the chunk size
// whatever the file size. Lines come without their "\n" or "\r\n"; numbers start at 1.
#include "importers/text/input_file.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// A "line" longer than this is not text a tool wrote line by line: readers stop rather than
// buffer an arbitrarily large binary blob.
inline constexpr std::size_t kMaxLineBytes = 64u << 20;

class LineReader {
public:
    explicit LineReader(const std::string& path);

    // The next line, valid until the next call; false at the end of the file.
    bool next(std::string_view& line);

    std::int64_t lineNumber() const { return m_lineNumber; }
    const std::string& path() const { return m_in.path(); }
    double progress() const { return m_in.progress(); }

    // "FILE:LINE: what" for messages about the current line.
    std::string where() const;
    [[noreturn]] void fail(const std::string& what) const;

private:
    bool fill();

    InputFile m_in;
    std::vector<char> m_buf;
    std::size_t m_begin = 0;  // first unread byte in m_buf
    std::size_t m_end = 0;    // one past the last valid byte
    bool m_eof = false;
    std::int64_t m_lineNumber = 0;
};

}  // namespace faultline
