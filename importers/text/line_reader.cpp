#include "importers/text/line_reader.h"

#include "model/error.h"

#include <cstring>

namespace faultline {

namespace {
constexpr std::size_t kLineChunk = 1 << 20;
}  // namespace

LineReader::LineReader(const std::string& path) : m_in(path), m_buf(kLineChunk) {}

bool LineReader::fill() {
    if (m_eof) return false;
    if (m_begin > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    if (m_end == m_buf.size()) {
        if (m_buf.size() >= kMaxLineBytes)
            throw Error(m_in.path() + ":" + std::to_string(m_lineNumber + 1) + ": line longer than " +
                        std::to_string(kMaxLineBytes >> 20) + " MB; this is not a line-oriented text file");
        m_buf.resize(m_buf.size() * 2);
    }
    const std::size_t got = m_in.read(m_buf.data() + m_end, m_buf.size() - m_end);
    if (got == 0) m_eof = true;
    m_end += got;
    return got > 0;
}

bool LineReader::next(std::string_view& line) {
    for (;;) {
        const char* start = m_buf.data() + m_begin;
        const void* nl = std::memchr(start, '\n', m_end - m_begin);
        if (nl) {
            const std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
            line = std::string_view(start, len);
            m_begin += len + 1;
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            ++m_lineNumber;
            return true;
        }
        if (!fill()) {
            if (m_begin == m_end) return false;
            line = std::string_view(m_buf.data() + m_begin, m_end - m_begin);  // last line, no newline
            m_begin = m_end;
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            ++m_lineNumber;
            return true;
        }
    }
}

std::string LineReader::where() const { return m_in.path() + ":" + std::to_string(m_lineNumber); }

void LineReader::fail(const std::string& what) const { throw Error(where() + ": " + what); }

}  // namespace faultline
