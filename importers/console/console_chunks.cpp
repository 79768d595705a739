#include "importers/console/console_chunks.h"

#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"
#include "importers/console/training_log_line.h"

#include "model/error.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace faultline {

namespace {

// Big enough that a chunk's thread start and hand-over cost nothing next to its lines, small
// enough that the chunks in flight stay a few tens of MB.
constexpr std::size_t kDefaultChunk = 4u << 20;

void prepareSegments(PreparedChunk& chunk, std::vector<ConsoleLine>& segments, std::uint32_t physical, std::size_t rawSize) {
    for (ConsoleLine& line : segments) {
        PreparedLine& p = chunk.lines.emplace_back();
        p.physical = physical;
        p.rawSize = static_cast<std::uint32_t>(rawSize);
        p.line = line;
        const std::string_view text = line.text;
        if (trim(text).empty()) {
            p.blank = true;
            continue;
        }
        try {
            if (!line.time && !line.yearless) p.timeInText = timeInLine(text);
            if (text.front() == '#') continue;
            const ConsoleKinds kinds = matchConsoleKinds(text);
            for (std::size_t k = 0; kinds.any() && k < kConsoleKindCount; ++k) {
                if (!kinds.test(k)) continue;
                if (auto e = parseConsoleEvent(static_cast<ConsoleKind>(k), text)) {
                    p.event = static_cast<std::int32_t>(chunk.events.size());
                    chunk.events.push_back(*e);
                    break;
                }
            }
        } catch (const TimeOutOfRange& e) {
            p.error = static_cast<std::int32_t>(chunk.errors.size());
            chunk.errors.emplace_back(e.what());
        }
    }
}

std::unique_ptr<PreparedChunk> prepare(std::unique_ptr<PreparedChunk> chunk) {
    ConsoleLinePeeler peeler;  // defers yearless times: they depend on the lines before
    std::vector<ConsoleLine> segments;
    std::string scratch;
    std::string_view rest = chunk->text;
    std::uint32_t physical = 0;
    while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        std::string_view raw = rest.substr(0, nl);
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        try {
            std::string_view plain = stripAnsi(raw, scratch);
            if (plain.data() != raw.data()) plain = chunk->plain.emplace_back(std::move(scratch));
            peeler.splitPlain(plain, segments, &chunk->plain);
            prepareSegments(*chunk, segments, physical, raw.size());
        } catch (const TimeOutOfRange& e) {
            PreparedLine& p = chunk->lines.emplace_back();
            p.physical = physical;
            p.error = static_cast<std::int32_t>(chunk->errors.size());
            chunk->errors.emplace_back(e.what());
        }
        ++physical;
    }
    chunk->physicalLines = physical;
    return chunk;
}

}  // namespace

ConsoleChunks::ConsoleChunks(const std::string& path, int threads, std::size_t chunkBytes)
    : m_in(path),
      m_threads(threads > 0 ? static_cast<std::size_t>(threads) : std::max(1u, std::thread::hardware_concurrency())),
      m_chunkBytes(chunkBytes > 0 ? chunkBytes : kDefaultChunk), m_roundBytes(m_chunkBytes) {}

ConsoleChunks::~ConsoleChunks() {
    // A future of std::async waits for its thread; its exception, if any, is dropped with it.
    m_inFlight.clear();
}

std::unique_ptr<PreparedChunk> ConsoleChunks::read() {
    if (m_eof && (m_carry.empty() || m_unendedWaits)) return nullptr;
    std::unique_ptr<PreparedChunk> chunk;
    if (m_spare.empty()) {
        chunk = std::make_unique<PreparedChunk>();
    } else {
        chunk = std::move(m_spare.back());
        m_spare.pop_back();
    }
    std::string& buf = chunk->text;
    buf.assign(m_carry);
    m_carry.clear();
    std::size_t searched = 0;
    for (;;) {
        if (!m_eof) {
            const std::size_t had = buf.size();
            buf.resize(had + m_roundBytes);
            std::size_t got = 0;
            while (got < m_roundBytes) {
                const std::size_t n = m_in.read(buf.data() + had + got, m_roundBytes - got);
                if (n == 0) {
                    m_eof = true;
                    if (m_unendedWaits) m_in.close();  // a growing file: no descriptor held until it grows
                    break;
                }
                got += n;
            }
            buf.resize(had + got);
        }
        // The chunk ends at its last line end; the rest starts the next chunk.
        const auto last = std::find(buf.rbegin(), buf.rend() - static_cast<std::ptrdiff_t>(searched), '\n');
        if (last != buf.rend() - static_cast<std::ptrdiff_t>(searched)) {
            const std::size_t end = static_cast<std::size_t>(buf.rend() - last);
            m_carry.assign(buf, end);
            buf.resize(end);
            break;
        }
        if (m_eof) {
            if (!m_unendedWaits) break;  // the last line, without its newline
            m_carry.assign(buf);  // its end is still to be written
            buf.clear();
            break;
        }
        searched = buf.size();
        if (buf.size() >= kMaxLineBytes)
            throw Error(m_in.path() + ": line longer than " + std::to_string(kMaxLineBytes >> 20) + " MB; this is not a line-oriented text file");
    }
    if (buf.empty()) {
        m_spare.push_back(std::move(chunk));
        return nullptr;
    }
    chunk->progress = m_in.progress();
    return chunk;
}

void ConsoleChunks::recycle() {
    if (!m_current) return;
    PreparedChunk& c = *m_current;
    c.text.clear();
    c.plain.clear();
    c.lines.clear();
    c.events.clear();
    c.errors.clear();
    c.physicalLines = 0;
    c.progress = 0;
    m_spare.push_back(std::move(m_current));
}

std::unique_ptr<PreparedChunk> ConsoleChunks::produce() {
    if (m_threads <= 1 || m_roundBytes < m_chunkBytes) {  // one chunk: no thread to start
        auto chunk = read();
        return chunk ? prepare(std::move(chunk)) : nullptr;
    }
    // Keep every thread busy with a chunk while this one's lines are merged in order.
    while (m_inFlight.size() < m_threads) {
        auto chunk = read();
        if (!chunk) break;
        m_inFlight.push_back(std::async(std::launch::async, prepare, std::move(chunk)));
    }
    if (m_inFlight.empty()) return nullptr;
    auto chunk = m_inFlight.front().get();
    m_inFlight.pop_front();
    return chunk;
}

PreparedChunk* ConsoleChunks::next() {
    std::unique_ptr<PreparedChunk> chunk = m_peeked ? std::move(m_peeked) : produce();
    if (!chunk) return nullptr;
    recycle();
    m_current = std::move(chunk);
    return m_current.get();
}

void ConsoleChunks::readOn(bool toTheEnd, std::uint64_t expectedBytes) {
    m_unendedWaits = !toTheEnd;
    m_eof = false;
    // A chunk one byte bigger than the growth meets the end in one read.
    m_roundBytes = static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(expectedBytes + 1, 4096), m_chunkBytes));
    m_spare.clear();  // the big buffers of a first read are not kept for small growths
    m_in.readOnPastTheEnd();
}

PreparedChunk* ConsoleChunks::peek() {
    if (!m_peeked) m_peeked = produce();
    return m_peeked.get();
}

}  // namespace faultline
