#pragma once
// A pull tokenizer over a JSON file read in chunks: memory stays at the chunk size plus the
// longest string or number, however large the file and however long one array in it is.
// For documents whose shape the reader knows (a Prometheus query_range export) and whose
// arrays are too big for a DOM or for one element in memory (a series of millions of samples).
#include "importers/text/input_file.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

class JsonPull {
public:
    enum class Token { BeginObject, EndObject, BeginArray, EndArray, String, Number, Literal, End };

    explicit JsonPull(const std::string& path);
    // The next token; ',' and ':' are taken as separators. Errors name the file and byte.
    Token next();
    // A String's text (unescaped) or a Number's or Literal's; valid until the next call.
    std::string_view text() const { return m_text; }
    // Skips the rest of a value whose first token `first` was just read.
    void skipValue(Token first);
    std::uint64_t offset() const { return m_base + m_pos; }
    double progress() const { return m_in.progress(); }
    const std::string& path() const { return m_in.path(); }
    [[noreturn]] void fail(const std::string& what) const;

private:
    bool fill();  // keeps [m_tokenStart, end) and reads more; false at the end of the file

    InputFile m_in;
    std::vector<char> m_buf;
    std::size_t m_pos = 0, m_end = 0;
    std::uint64_t m_base = 0;  // file offset of m_buf[0]
    bool m_eof = false;
    std::string_view m_text;
    std::string m_unescaped;
    int m_depth = 0;
};

}  // namespace faultline
