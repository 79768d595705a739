#include "importers/text/line_reader.h"

#include "importers/text/text_encoding.h"
#include "model/error.h"
#include "model/format.h"

#include <cstring>

namespace faultline {

namespace {
constexpr std::size_t kLineChunk = 1 << 20;
}  // namespace

std::string zeroBytesNote(std::uint64_t count, std::uint64_t offset, std::int64_t line) {
    return formatCounted(static_cast<std::int64_t>(count), "zero byte", "zero bytes") + " at offset " + std::to_string(offset) + " (line " +
           std::to_string(line) + "): the node was probably reset here";
}

LineReader::LineReader(const std::string& path, std::vector<std::string>* notes) : m_in(path), m_buf(kLineChunk), m_notes(notes) {}

LineReader::~LineReader() {
    try {
        flushNotes();
    } catch (...) {
        // Out of memory while unwinding: the notes are lost, the error that ended the read is not.
    }
}

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

bool LineReader::skipZeros() {
    for (;;) {
        std::size_t i = m_begin;
        while (i < m_end && m_buf[i] == '\0') ++i;
        if (i > m_begin) {
            // Where the run began: m_end is the offset read so far.
            if (m_zeroRun == 0) m_zeroRunOffset = m_in.decompressedOffset() - (m_end - m_begin);
            m_zeroRun += i - m_begin;
            m_begin = i;
        }
        if (m_begin < m_end) {
            if (m_zeroRun) zeroRunEnded();
            return true;
        }
        if (!fill()) {
            if (m_zeroRun) zeroRunEnded();
            return false;
        }
    }
}

void LineReader::zeroRunEnded() {
    ++m_zeroRuns;
    m_zeroBytes += m_zeroRun;
    if (m_notes && m_zeroRuns <= kZeroRunNotes) m_notes->push_back(zeroBytesNote(m_zeroRun, m_zeroRunOffset, m_lineNumber + (m_atLineStart ? 1 : 0)));
    m_zeroRun = 0;
}

std::string_view LineReader::deliver(std::string_view line, bool endsLine) {
    if (m_atLineStart) ++m_lineNumber;
    m_atLineStart = endsLine;
    if (endsLine && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (validUtf8(line)) return line;
    if (m_latin1Lines++ == 0) m_firstLatin1Line = m_lineNumber;
    m_converted = latin1ToUtf8(line);
    return m_converted;
}

void LineReader::flushNotes() {
    if (m_flushed || !m_notes) return;
    m_flushed = true;
    if (m_zeroRuns > kZeroRunNotes)
        m_notes->push_back(formatCounted(static_cast<std::int64_t>(m_zeroRuns - kZeroRunNotes), "more run", "more runs") + " of zero bytes (" +
                           formatCount(static_cast<std::int64_t>(m_zeroBytes)) + " zero bytes in all in the file): the node was probably reset there");
    if (m_latin1Lines > 0)
        m_notes->push_back(formatCounted(m_latin1Lines, "line holds", "lines hold") + " bytes that are not UTF-8 (the first is line " +
                           std::to_string(m_firstLatin1Line) + "): read as Latin-1 (ISO 8859-1) and kept as UTF-8");
}

bool LineReader::next(std::string_view& line) {
    for (;;) {
        if (!skipZeros()) {
            flushNotes();
            return false;
        }
        const char* start = m_buf.data() + m_begin;
        const std::size_t avail = m_end - m_begin;
        const auto* nl = static_cast<const char*>(std::memchr(start, '\n', avail));
        const std::size_t scan = nl ? static_cast<std::size_t>(nl - start) : avail;
        if (const auto* zero = static_cast<const char*>(std::memchr(start, '\0', scan))) {
            // A run of zero bytes ends what was written of this line; the text after it is
            // read once the run is skipped.
            const std::size_t len = static_cast<std::size_t>(zero - start);
            m_begin += len;
            line = deliver(std::string_view(start, len), false);
            return true;
        }
        if (nl) {
            m_begin += scan + 1;
            if (scan == 0 && !m_atLineStart) {  // the line a zero run cut ends here, nothing after the run
                m_atLineStart = true;
                continue;
            }
            line = deliver(std::string_view(start, scan), true);
            return true;
        }
        if (!fill()) {
            if (m_begin == m_end) {
                flushNotes();
                return false;
            }
            line = deliver(std::string_view(m_buf.data() + m_begin, m_end - m_begin), true);  // last line, no newline
            m_begin = m_end;
            return true;
        }
    }
}

std::string LineReader::where() const { return m_in.path() + ":" + std::to_string(m_lineNumber); }

void LineReader::fail(const std::string& what) const { throw Error(where() + ": " + what); }

}  // namespace faultline
