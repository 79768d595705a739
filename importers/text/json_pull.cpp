#include "importers/text/json_pull.h"

#include "importers/text/json_limits.h"

#include "model/error.h"

#include <cstring>

namespace faultline {

namespace {
constexpr std::size_t kPullChunk = 1u << 20;
constexpr std::size_t kMaxToken = 64u << 20;  // a string longer than this is not telemetry

void appendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}
}  // namespace

JsonPull::JsonPull(const std::string& path) : m_in(path), m_buf(kPullChunk) {}

void JsonPull::fail(const std::string& what) const { throw Error(m_in.path() + ": byte " + std::to_string(offset()) + ": " + what); }

bool JsonPull::fill() {
    if (m_eof) return false;
    // Keep the token being read (from m_pos) at the front.
    if (m_pos > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
        m_end -= m_pos;
        m_base += m_pos;
        m_pos = 0;
    }
    if (m_end == m_buf.size()) {
        if (m_buf.size() >= kMaxToken) fail("a string or number longer than " + std::to_string(kMaxToken >> 20) + " MB");
        m_buf.resize(m_buf.size() * 2);
    }
    const std::size_t got = m_in.read(m_buf.data() + m_end, m_buf.size() - m_end);
    if (got == 0) m_eof = true;
    m_end += got;
    return got > 0;
}

JsonPull::Token JsonPull::next() {
    for (;;) {
        while (m_pos < m_end) {
            const char c = m_buf[m_pos];
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || c == ':') {
                ++m_pos;
                continue;
            }
            break;
        }
        if (m_pos < m_end) break;
        // Separators ran to the end of the buffer: read on, and skip any at the new data's front.
        if (!fill()) {
            if (m_depth != 0) fail("the file ends inside an object or array: it is cut short");
            return Token::End;
        }
    }
    const char c = m_buf[m_pos];
    switch (c) {
        case '{':
        case '[':
            if (++m_depth > kMaxJsonDepth) fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
            ++m_pos;
            return c == '{' ? Token::BeginObject : Token::BeginArray;
        case '}':
        case ']':
            if (--m_depth < 0) fail(std::string("unexpected '") + c + "'");
            ++m_pos;
            return c == '}' ? Token::EndObject : Token::EndArray;
        case '"': {
            // Find the closing quote, refilling as needed; m_pos stays at the opening quote.
            std::size_t i = m_pos + 1;
            bool escaped = false;
            for (;;) {
                while (i < m_end && m_buf[i] != '"') {
                    if (m_buf[i] != '\\') {
                        ++i;
                        continue;
                    }
                    escaped = true;
                    if (i + 1 >= m_end) break;  // the escaped byte is in the next chunk
                    i += 2;
                }
                if (i < m_end && m_buf[i] == '"') break;
                const std::size_t from = i - m_pos;
                if (!fill()) fail("the file ends inside a string");
                i = m_pos + from;
            }
            const char* s = m_buf.data() + m_pos + 1;
            const std::size_t n = i - m_pos - 1;
            m_pos = i + 1;
            if (!escaped) {
                m_text = std::string_view(s, n);
                return Token::String;
            }
            m_unescaped.clear();
            for (std::size_t k = 0; k < n; ++k) {
                if (s[k] != '\\' || k + 1 >= n) {
                    m_unescaped += s[k];
                    continue;
                }
                const char e = s[++k];
                switch (e) {
                    case 'n': m_unescaped += '\n'; break;
                    case 't': m_unescaped += '\t'; break;
                    case 'r': m_unescaped += '\r'; break;
                    case 'b': m_unescaped += '\b'; break;
                    case 'f': m_unescaped += '\f'; break;
                    case 'u': {
                        unsigned cp = 0;
                        for (int d = 0; d < 4 && k + 1 < n; ++d) {
                            const char h = s[++k];
                            cp = cp * 16 + static_cast<unsigned>(h >= '0' && h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
                        }
                        appendUtf8(m_unescaped, cp & 0xFFFF);
                        break;
                    }
                    default: m_unescaped += e;
                }
            }
            m_text = m_unescaped;
            return Token::String;
        }
        default: {
            const bool number = c == '-' || (c >= '0' && c <= '9');
            const bool literal = c == 't' || c == 'f' || c == 'n';
            if (!number && !literal) fail(std::string("unexpected '") + c + "' (expected a JSON value)");
            std::size_t i = m_pos;
            for (;;) {
                while (i < m_end) {
                    const char d = m_buf[i];
                    if (d == ',' || d == ']' || d == '}' || d == ' ' || d == '\n' || d == '\r' || d == '\t' || d == ':') break;
                    ++i;
                }
                if (i < m_end || m_eof) break;
                const std::size_t from = i - m_pos;
                fill();
                i = m_pos + from;
            }
            m_text = std::string_view(m_buf.data() + m_pos, i - m_pos);
            m_pos = i;
            if (literal && m_text != "true" && m_text != "false" && m_text != "null")
                fail("unexpected \"" + std::string(m_text.substr(0, 20)) + "\" (expected a JSON value)");
            return number ? Token::Number : Token::Literal;
        }
    }
}

void JsonPull::skipValue(Token first) {
    if (first != Token::BeginObject && first != Token::BeginArray) return;
    int depth = 1;
    while (depth > 0) {
        const Token t = next();
        if (t == Token::BeginObject || t == Token::BeginArray) ++depth;
        else if (t == Token::EndObject || t == Token::EndArray) --depth;
        else if (t == Token::End) fail("the file ends inside an object or array: it is cut short");
    }
}

}  // namespace faultline
