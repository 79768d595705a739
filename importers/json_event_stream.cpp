#include "json_event_stream.h"

#include "model/error.h"

#include <array>
#include <cstring>

namespace faultline {

namespace {

constexpr std::size_t kChunk = 8u << 20;
constexpr std::size_t kPadding = 64;                 // >= SIMDJSON_PADDING
constexpr std::size_t kMaxMetadata = 64u << 20;      // what may sit outside the array
constexpr int kMaxDepth = 10'000;                    // JSON nested deeper than this is not data
constexpr std::size_t kMaxEvent = 256u << 20;        // one event larger than this is not a trace

// Bytes the event scanner must look at; everything else is skipped in the inner loop.
constexpr std::array<bool, 256> kSpecial = [] {
    std::array<bool, 256> t{};
    t['"'] = t['\\'] = t['{'] = t['}'] = t['['] = t[']'] = true;
    return t;
}();

}  // namespace

JsonEventStream::JsonEventStream(const std::string& path, std::vector<std::string_view> namePrefixes, JsonArrayShape shape)
    : m_in(path), m_namePrefixes(std::move(namePrefixes)), m_shape(shape) {}

void JsonEventStream::fail(std::uint64_t offset, const std::string& what) const {
    throw Error(m_in.path() + ": byte " + std::to_string(offset) + ": " + what);
}

void JsonEventStream::run(const std::function<void(const char*, std::size_t, std::size_t)>& onEvent,
                          const std::function<void(double)>& onChunk) {
    enum class Phase { Prefix, BetweenEvents, InEvent, Suffix, Done };
    Phase phase = Phase::Prefix;
    std::vector<char> buf(kChunk + kPadding);
    std::size_t begin = 0, end = 0;  // unconsumed bytes [begin, end)
    std::uint64_t base = 0;          // file offset (decompressed) of buf[0]

    // Scanner state, kept across chunks.
    bool inString = false, escape = false;
    int depth = 0;                   // nesting depth in the whole document
    std::size_t scan = 0;            // next byte to look at
    std::size_t eventStart = 0;
    std::size_t stringStart = 0;     // first byte of the string being read, in an event
    std::string lastKey;             // the last string seen at depth 1, while in the prefix
    std::size_t keyStart = 0;
    bool keyIsTraceEvents = false;
    bool sawColon = false;
    std::string suffix;
    // The event's top-level "name": where its key ended, and whether its value says skip.
    std::size_t nameKeyEnd = 0;
    bool skipEvent = false;
    auto wanted = [&](std::string_view name) {
        if (name.find('\\') != std::string_view::npos) return true;  // escaped: let the parser judge
        for (std::string_view prefix : m_namePrefixes)
            if (name.substr(0, prefix.size()) == prefix) return true;
        return false;
    };
    auto onlyColonBetween = [&](const char* p, std::size_t from, std::size_t to) {
        bool colon = false;
        for (std::size_t i = from; i < to; ++i) {
            if (p[i] == ':' && !colon) colon = true;
            else if (p[i] != ' ' && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') return false;
        }
        return colon;
    };

    for (;;) {
        // Refill: keep the unfinished event (or nothing) and read the next chunk behind it.
        // A key cut by the chunk boundary must stay whole, so the prefix keeps it.
        const std::size_t keep = phase == Phase::InEvent ? eventStart : (phase == Phase::Prefix && inString ? keyStart - 1 : scan);
        if (phase == Phase::Prefix) {
            m_metadata.append(buf.data() + begin, keep - begin);
            if (m_metadata.size() > kMaxMetadata) fail(base + scan, "no \"" + std::string(m_shape.key) + "\" array in the first 64 MB (expected " + std::string(m_shape.document) + ")");
        }
        if (phase == Phase::Suffix) {
            suffix.append(buf.data() + begin, keep - begin);
            if (suffix.size() > kMaxMetadata) fail(base + scan, "more than 64 MB after " + std::string(m_shape.key));
        }
        const std::size_t shift = keep;
        std::memmove(buf.data(), buf.data() + shift, end - shift);
        base += shift;
        end -= shift;
        scan -= shift;
        eventStart -= std::min(eventStart, shift);
        stringStart -= std::min(stringStart, shift);
        nameKeyEnd -= std::min(nameKeyEnd, shift);
        keyStart -= std::min(keyStart, shift);
        begin = 0;
        if (end + kChunk + kPadding > buf.size()) {
            if (end > kMaxEvent) fail(base, "one " + std::string(m_shape.element) + " is larger than 256 MB");
            buf.resize(end + kChunk + kPadding);
        }
        const std::size_t got = m_in.read(buf.data() + end, buf.size() - kPadding - end);
        if (got == 0) break;
        end += got;
        std::memset(buf.data() + end, ' ', kPadding);
        onChunk(m_in.progress());

        const char* p = buf.data();
        while (scan < end) {
            const char c = p[scan];
            if (inString && phase == Phase::InEvent) {
                // The whole event stays in the buffer: jump from quote to quote, and count
                // the backslashes before one to know whether it closes the string.
                // Most strings are short keys: look at a few bytes before calling memchr.
                const char* q = p + scan;
                const char* const shortEnd = p + std::min(end, scan + 16);
                while (q < shortEnd && *q != '"') ++q;
                if (q == shortEnd) q = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(p + end - q)));
                if (!q) {
                    scan = end;
                    continue;
                }
                const std::size_t quote = static_cast<std::size_t>(q - p);
                std::size_t backslashes = 0;
                while (quote - backslashes > eventStart && p[quote - backslashes - 1] == '\\') ++backslashes;
                scan = quote + 1;
                if (backslashes % 2) continue;
                inString = false;
                if (depth == 3 && !m_namePrefixes.empty()) {
                    const std::string_view text(p + stringStart, quote - stringStart);
                    if (text == "name") nameKeyEnd = scan;
                    else if (nameKeyEnd && onlyColonBetween(p, nameKeyEnd, stringStart - 1)) skipEvent = !wanted(text);
                }
                continue;
            }
            if (inString) {
                // Inside a string only the closing quote matters; skip runs fast.
                if (escape) {
                    escape = false;
                } else if (c == '\\') {
                    escape = true;
                } else if (c == '"') {
                    inString = false;
                    if (phase == Phase::Prefix && depth == 1) {
                        keyIsTraceEvents = std::string_view(p + keyStart, scan - keyStart) == m_shape.key;
                        sawColon = false;
                    }
                } else {
                    const void* q = nullptr;
                    // Jump to the next quote or backslash.
                    const char* s = p + scan;
                    const char* e = p + end;
                    while (s < e && *s != '"' && *s != '\\') ++s;
                    q = s;
                    scan = static_cast<std::size_t>(static_cast<const char*>(q) - p);
                    continue;
                }
                ++scan;
                continue;
            }
            if (phase == Phase::InEvent) {
                // Fast path through an event's structure.
                const char* s = p + scan;
                const char* e = p + end;
                while (s < e && !kSpecial[static_cast<unsigned char>(*s)]) ++s;
                scan = static_cast<std::size_t>(s - p);
                if (scan >= end) break;
                const char d = *s;
                ++scan;
                if (d == '"') {
                    inString = true;
                    stringStart = scan;
                } else if (d == '{' || d == '[') {
                    ++depth;
                } else if (d == '}' || d == ']') {
                    --depth;
                    if (depth == 2) {
                        if (d != '}') fail(base + scan - 1, "expected '}' to close a " + std::string(m_shape.element));
                        m_eventOffset = base + eventStart;
                        if (!skipEvent) onEvent(p + eventStart, scan - eventStart, buf.size() - scan);
                        ++m_events;
                        phase = Phase::BetweenEvents;
                    }
                } else {
                    fail(base + scan - 1, "a backslash outside a string");
                }
                continue;
            }
            ++scan;
            switch (c) {
                case ' ': case '\n': case '\r': case '\t': break;
                case '"':
                    inString = true;
                    keyStart = scan;
                    break;
                case ':':
                    if (phase == Phase::Prefix && depth == 1 && keyIsTraceEvents) sawColon = true;
                    break;
                case '{': case '[':
                    if (phase == Phase::Prefix && c == '[' && depth == 1 && keyIsTraceEvents && sawColon) {
                        // The array starts: the metadata keeps an empty array in its place.
                        m_metadata.append(p + begin, scan - begin);
                        m_metadata += "]";
                        ++depth;
                        phase = Phase::BetweenEvents;
                        keyIsTraceEvents = false;
                        break;
                    }
                    if (phase == Phase::BetweenEvents) {
                        if (c != '{') fail(base + scan - 1, "expected a " + std::string(m_shape.element) + " object in " + std::string(m_shape.key));
                        eventStart = scan - 1;
                        nameKeyEnd = 0;
                        skipEvent = false;
                        phase = Phase::InEvent;
                    }
                    if (depth == 0 && c != '{') fail(base + scan - 1, "expected a JSON object (" + std::string(m_shape.document) + " starts with '{')");
                    ++depth;
                    break;
                case '}': case ']':
                    --depth;
                    if (phase == Phase::BetweenEvents && depth == 1) {
                        if (c != ']') fail(base + scan - 1, "expected ']' to close " + std::string(m_shape.key));
                        begin = scan;  // the suffix starts after the array
                        phase = Phase::Suffix;
                    } else if (depth == 0) {
                        if (phase == Phase::Prefix) fail(base + scan - 1, "the JSON object has no \"" + std::string(m_shape.key) + "\" array");
                        if (c != '}') fail(base + scan - 1, "unbalanced ']': expected '}' to close the top-level object");
                        phase = Phase::Done;
                    } else if (depth < 0) {
                        fail(base + scan - 1, "unbalanced '" + std::string(1, c) + "'");
                    }
                    break;
                case ',':
                    break;
                default:
                    if (phase == Phase::BetweenEvents) fail(base + scan - 1, "expected a " + std::string(m_shape.element) + " object or ']' in " + std::string(m_shape.key));
                    if (depth == 0) fail(base + scan - 1, "expected a JSON object (" + std::string(m_shape.document) + " starts with '{')");
                    break;
            }
            if (phase == Phase::Done) {
                suffix.append(p + begin, scan - begin);
                begin = scan;
                break;
            }
        }
        if (phase == Phase::Done) break;
    }
    if (phase != Phase::Done) {
        const std::uint64_t at = base + end;
        if (phase == Phase::Prefix) fail(at, "the file ends before a \"" + std::string(m_shape.key) + "\" array (expected " + std::string(m_shape.document) + ")");
        fail(at, phase == Phase::Suffix ? "the file ends before the closing '}' of the top-level object"
                                        : "the file ends inside " + std::string(m_shape.key) + ": the file is cut short (" + std::to_string(m_events) + " " +
                                              std::string(m_shape.element) + "s read)");
    }
    m_metadata += suffix;
}

}  // namespace faultline
