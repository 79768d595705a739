#include "importers/text/json_event_stream.h"

#include "importers/text/mapped_file.h"
#include "model/error.h"

#include <algorithm>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace faultline {

namespace {

constexpr std::size_t kStreamChunk = 8u << 20;
constexpr std::size_t kPadding = 64;                 // >= SIMDJSON_PADDING
constexpr std::size_t kMaxMetadata = 64u << 20;      // what may sit outside the array
constexpr std::size_t kMaxEvent = 256u << 20;        // one event larger than this is not a trace

// The first byte from `s` on that the event scanner must look at (a quote, a backslash or a
// bracket; everything else is skipped 16 bytes at a time); reads up to 15 bytes past
// `end`, which the buffer's padding (spaces) makes readable and never special.
const char* nextSpecial(const char* s, const char* end) {
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), brace = _mm_set1_epi8('{');
    const __m128i closeBrace = _mm_set1_epi8('}'), bracket = _mm_set1_epi8('['), closeBracket = _mm_set1_epi8(']');
    for (; s < end; s += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                                      _mm_or_si128(_mm_cmpeq_epi8(v, brace), _mm_cmpeq_epi8(v, closeBrace))),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, bracket), _mm_cmpeq_epi8(v, closeBracket)));
        if (const int mask = _mm_movemask_epi8(hit)) return std::min(end, s + __builtin_ctz(static_cast<unsigned>(mask)));
    }
    return end;
#else
    while (s < end && *s != '"' && *s != '\\' && *s != '{' && *s != '}' && *s != '[' && *s != ']') ++s;
    return s;
#endif
}

// The next '"' from `s` on, or nullptr before `end`; reads up to 15 bytes past `end` (padding).
const char* nextQuote(const char* s, const char* end) {
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    for (; s < end; s += 16) {
        const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)), quote));
        if (mask) {
            const char* q = s + __builtin_ctz(static_cast<unsigned>(mask));
            return q < end ? q : nullptr;
        }
    }
    return nullptr;
#else
    return static_cast<const char*>(std::memchr(s, '"', static_cast<std::size_t>(end - s)));
#endif
}

bool onlyColonBetween(const char* p, std::size_t from, std::size_t to) {
    bool colon = false;
    for (std::size_t i = from; i < to; ++i) {
        if (p[i] == ':' && !colon) colon = true;
        else if (p[i] != ' ' && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') return false;
    }
    return colon;
}

}  // namespace

// One pass over the file: the document's structure is followed byte by byte outside the array
// (the prefix and suffix, kept as metadata) and between its elements; inside an element only
// strings and brackets matter, so the scan jumps from one to the next. Its state lives across
// chunks, each refill keeping the unfinished element in the buffer.
class JsonEventStream::Scanner {
public:
    using OnEvent = std::function<void(const char*, std::size_t, std::size_t)>;
    // With `mapped`, the file is scanned where it is mapped, a chunk at a time (for progress
    // and Cancel), nothing copied; else read into a buffer a chunk at a time.
    Scanner(JsonEventStream& stream, const OnEvent& onEvent, MappedFile* mapped) : m_s(stream), m_onEvent(onEvent), m_mapped(mapped) {
        if (mapped) {
            // Offsets count from after a UTF-8 byte order mark, as InputFile drops it.
            const bool mark = mapped->size() >= 3 && std::string_view(mapped->data(), 3) == "\xEF\xBB\xBF";
            m_skip = mark ? 3 : 0;
            m_p = mapped->data() + m_skip;
            m_capacity = mapped->readable() - m_skip;
        } else {
            m_buf.resize(kStreamChunk + kPadding);
            m_p = m_buf.data();
            m_capacity = m_buf.size();
        }
    }
    double progress() const {
        return m_mapped ? static_cast<double>(m_end) / static_cast<double>(std::max<std::size_t>(1, m_mapped->size() - m_skip)) : m_s.m_in.progress();
    }

    // Reads the next chunk behind what is still needed; false at the end of the file.
    bool refill();
    // Scans the chunk read; true when the document is complete.
    bool scanChunk();
    // The file ended: complete, or where it was cut short.
    void finish();

private:
    enum class Phase { Prefix, BetweenEvents, InEvent, Suffix, Done };

    void scanEvent();
    void noteTopLevelString(std::size_t begin, std::size_t quote, std::size_t after);
    void scanStringOutsideEvent();
    void scanDocumentStructure(char c);
    bool wanted(std::string_view name) const;
    [[noreturn]] void failHere(const std::string& what) const { m_s.fail(m_base + m_at - 1, what); }
    std::string element() const { return std::string(m_s.m_shape.element); }
    std::string key() const { return std::string(m_s.m_shape.key); }
    std::string document() const { return std::string(m_s.m_shape.document); }

    JsonEventStream& m_s;
    const OnEvent& m_onEvent;
    Phase m_phase = Phase::Prefix;
    MappedFile* m_mapped;
    std::size_t m_skip = 0;              // a byte order mark before the mapped text
    std::vector<char> m_buf;
    const char* m_p = nullptr;           // the bytes scanned: m_buf's, or the mapping's
    std::size_t m_capacity = 0;          // readable from m_p (padding included)
    std::size_t m_begin = 0, m_end = 0;  // unconsumed bytes [begin, end)
    std::uint64_t m_base = 0;            // file offset (decompressed) of m_p[0]
    bool m_inString = false, m_escape = false;
    int m_depth = 0;                     // nesting depth in the whole document
    std::size_t m_at = 0;                // next byte to look at
    std::size_t m_eventStart = 0;
    std::size_t m_stringStart = 0;       // first byte of the string being read, in an event
    std::size_t m_keyStart = 0;          // first byte of the string being read, in the prefix
    bool m_keyIsArray = false;           // the last string at depth 1 of the prefix is the array's key
    bool m_sawColon = false;
    std::string m_suffix;
    // The event's top-level "name": where its key ended, and whether its value says skip.
    std::size_t m_nameKeyEnd = 0;
    bool m_skipEvent = false;
};

bool JsonEventStream::Scanner::wanted(std::string_view name) const {
    if (name.find('\\') != std::string_view::npos) return true;  // escaped: let the parser judge
    for (std::string_view prefix : m_s.m_namePrefixes)
        if (name.substr(0, prefix.size()) == prefix) return true;
    return false;
}

bool JsonEventStream::Scanner::refill() {
    // Keep the unfinished event (or nothing) and read the next chunk behind it. A key cut by
    // the chunk boundary must stay whole, so the prefix keeps it.
    const std::size_t keep = m_phase == Phase::InEvent ? m_eventStart : (m_phase == Phase::Prefix && m_inString ? m_keyStart - 1 : m_at);
    if (m_phase == Phase::Prefix) {
        m_s.m_metadata.append(m_p + m_begin, keep - m_begin);
        if (m_s.m_metadata.size() > kMaxMetadata) m_s.fail(m_base + m_at, "no \"" + key() + "\" array in the first 64 MB (expected " + document() + ")");
    }
    if (m_phase == Phase::Suffix) {
        m_suffix.append(m_p + m_begin, keep - m_begin);
        if (m_suffix.size() > kMaxMetadata) m_s.fail(m_base + m_at, "more than 64 MB after " + key());
    }
    if (m_mapped) {
        // The next chunk is already there: only the end moves, and the pages read leave memory.
        m_begin = keep;
        if (m_end - keep > kMaxEvent) m_s.fail(keep, "one " + element() + " is larger than 256 MB");
        const std::size_t size = m_mapped->size() - m_skip;
        if (m_end == size) return false;
        m_mapped->release(m_skip + keep);
        m_end = std::min(size, m_end + kStreamChunk);
        return true;
    }
    std::memmove(m_buf.data(), m_buf.data() + keep, m_end - keep);
    m_base += keep;
    m_end -= keep;
    m_at -= keep;
    for (std::size_t* offset : {&m_eventStart, &m_stringStart, &m_nameKeyEnd, &m_keyStart}) *offset -= std::min(*offset, keep);
    m_begin = 0;
    if (m_end + kStreamChunk + kPadding > m_buf.size()) {
        if (m_end > kMaxEvent) m_s.fail(m_base, "one " + element() + " is larger than 256 MB");
        m_buf.resize(m_end + kStreamChunk + kPadding);
        m_p = m_buf.data();
        m_capacity = m_buf.size();
    }
    const std::size_t got = m_s.m_in.read(m_buf.data() + m_end, m_buf.size() - kPadding - m_end);
    if (got == 0) return false;
    m_end += got;
    std::memset(m_buf.data() + m_end, ' ', kPadding);
    return true;
}

bool JsonEventStream::Scanner::scanChunk() {
    while (m_at < m_end) {
        if (m_phase == Phase::InEvent) scanEvent();
        else if (m_inString) scanStringOutsideEvent();
        else scanDocumentStructure(m_p[m_at++]);
        if (m_phase == Phase::Done) return true;
    }
    return false;
}

// Through an event to its end, or the chunk's: from one string or bracket to the next. The
// hottest loop of a trace import, so its state is in locals, written back when it stops.
void JsonEventStream::Scanner::scanEvent() {
    const char* const p = m_p;
    const std::size_t end = m_end;
    std::size_t at = m_at;
    int depth = m_depth;
    bool inString = m_inString;
    std::size_t stringStart = m_stringStart;
    const bool filtering = !m_s.m_namePrefixes.empty();
    while (at < end) {
        if (inString) {
            // The whole event stays in the buffer: jump from quote to quote, 16 bytes at a
            // time, and count the backslashes before one to know whether it closes the string.
            const char* q = nextQuote(p + at, p + end);
            if (!q) {
                at = end;
                break;
            }
            const auto quote = static_cast<std::size_t>(q - p);
            std::size_t backslashes = 0;
            while (quote - backslashes > m_eventStart && p[quote - backslashes - 1] == '\\') ++backslashes;
            at = quote + 1;
            if (backslashes % 2) continue;
            inString = false;
            if (depth == 3 && filtering) noteTopLevelString(stringStart, quote, at);
            continue;
        }
        const char* s = nextSpecial(p + at, p + end);
        at = static_cast<std::size_t>(s - p);
        if (at >= end) break;
        const char d = *s;
        ++at;
        if (d == '"') {
            inString = true;
            stringStart = at;
        } else if (d == '{' || d == '[') {
            ++depth;
        } else if (d == '}' || d == ']') {
            if (--depth != 2) continue;
            m_at = at;
            if (d != '}') failHere("expected '}' to close a " + element());
            m_s.m_eventOffset = m_base + m_eventStart;
            if (!m_skipEvent) m_onEvent(p + m_eventStart, at - m_eventStart, m_capacity - at);
            ++m_s.m_events;
            m_phase = Phase::BetweenEvents;
            break;
        } else {
            m_at = at;
            failHere("a backslash outside a string");
        }
    }
    m_at = at;
    m_depth = depth;
    m_inString = inString;
    m_stringStart = stringStart;
}

// A string at an event's top level, [begin, quote), ended: the "name" key, or its value, decides
// whether the event is handed on.
void JsonEventStream::Scanner::noteTopLevelString(std::size_t begin, std::size_t quote, std::size_t after) {
    const char* p = m_p;
    const std::string_view text(p + begin, quote - begin);
    if (text == "name") m_nameKeyEnd = after;
    else if (m_nameKeyEnd && onlyColonBetween(p, m_nameKeyEnd, begin - 1)) m_skipEvent = !wanted(text);
}

// Outside events only the closing quote matters (and, in the prefix, whether the string is
// the array's key): skip runs fast.
void JsonEventStream::Scanner::scanStringOutsideEvent() {
    const char c = m_p[m_at];
    if (m_escape) {
        m_escape = false;
    } else if (c == '\\') {
        m_escape = true;
    } else if (c == '"') {
        m_inString = false;
        if (m_phase == Phase::Prefix && m_depth == 1) {
            m_keyIsArray = std::string_view(m_p + m_keyStart, m_at - m_keyStart) == m_s.m_shape.key;
            m_sawColon = false;
        }
    } else {
        const char* s = m_p + m_at;
        const char* e = m_p + m_end;
        while (s < e && *s != '"' && *s != '\\') ++s;
        m_at = static_cast<std::size_t>(s - m_p);
        return;
    }
    ++m_at;
}

// The document around the array, and the array between its elements, byte by byte.
void JsonEventStream::Scanner::scanDocumentStructure(char c) {
    switch (c) {
        case ' ': case '\n': case '\r': case '\t': case ',': break;
        case '"':
            m_inString = true;
            m_keyStart = m_at;
            break;
        case ':':
            if (m_phase == Phase::Prefix && m_depth == 1 && m_keyIsArray) m_sawColon = true;
            break;
        case '{': case '[':
            if (m_phase == Phase::Prefix && c == '[' && m_depth == 1 && m_keyIsArray && m_sawColon) {
                // The array starts: the metadata keeps an empty array in its place.
                m_s.m_metadata.append(m_p + m_begin, m_at - m_begin);
                m_s.m_metadata += "]";
                ++m_depth;
                m_phase = Phase::BetweenEvents;
                m_keyIsArray = false;
                break;
            }
            if (m_phase == Phase::BetweenEvents) {
                if (c != '{') failHere("expected a " + element() + " object in " + key());
                m_eventStart = m_at - 1;
                m_nameKeyEnd = 0;
                m_skipEvent = false;
                m_phase = Phase::InEvent;
            }
            if (m_depth == 0 && c != '{') failHere("expected a JSON object (" + document() + " starts with '{')");
            ++m_depth;
            break;
        case '}': case ']':
            --m_depth;
            if (m_phase == Phase::BetweenEvents && m_depth == 1) {
                if (c != ']') failHere("expected ']' to close " + key());
                m_begin = m_at;  // the suffix starts after the array
                m_phase = Phase::Suffix;
            } else if (m_depth == 0) {
                if (m_phase == Phase::Prefix) failHere("the JSON object has no \"" + key() + "\" array");
                if (c != '}') failHere("unbalanced ']': expected '}' to close the top-level object");
                m_suffix.append(m_p + m_begin, m_at - m_begin);
                m_begin = m_at;
                m_phase = Phase::Done;
            } else if (m_depth < 0) {
                failHere("unbalanced '" + std::string(1, c) + "'");
            }
            break;
        default:
            if (m_phase == Phase::BetweenEvents) failHere("expected a " + element() + " object or ']' in " + key());
            if (m_depth == 0) failHere("expected a JSON object (" + document() + " starts with '{')");
            break;
    }
}

void JsonEventStream::Scanner::finish() {
    if (m_phase != Phase::Done) {
        const std::uint64_t at = m_base + m_end;
        if (m_phase == Phase::Prefix) m_s.fail(at, "the file ends before a \"" + key() + "\" array (expected " + document() + ")");
        m_s.fail(at, m_phase == Phase::Suffix ? "the file ends before the closing '}' of the top-level object"
                                              : "the file ends inside " + key() + ": the file is cut short (" + std::to_string(m_s.m_events) + " " +
                                                    element() + "s read)");
    }
    m_s.m_metadata += m_suffix;
}

JsonEventStream::JsonEventStream(const std::string& path, std::vector<std::string_view> namePrefixes, JsonArrayShape shape)
    : m_in(path), m_namePrefixes(std::move(namePrefixes)), m_shape(shape) {}

void JsonEventStream::fail(std::uint64_t offset, const std::string& what) const {
    throw Error(m_in.path() + ": byte " + std::to_string(offset) + ": " + what);
}

void JsonEventStream::run(const std::function<void(const char*, std::size_t, std::size_t)>& onEvent,
                          const std::function<void(double)>& onChunk) {
    // A plain file is scanned where it is mapped; compressed or UTF-16 text is read through
    // InputFile, which decompresses or converts it.
    std::unique_ptr<MappedFile> mapped;
    if (!m_in.compressed() && *m_in.encodingName() == '\0') mapped = MappedFile::open(m_in.path());
    Scanner scanner(*this, onEvent, mapped.get());
    while (scanner.refill()) {
        onChunk(scanner.progress());
        if (scanner.scanChunk()) break;
    }
    scanner.finish();
}

}  // namespace faultline
