#include "importers/console/console_continuation.h"

#include "importers/console/training_log_line.h"
#include "importers/text/terminal_width.h"
#include "importers/text/text_parse.h"

namespace faultline {

namespace {

// A physical line shorter than this is no terminal's width.
constexpr std::size_t kNarrowestWrap = 60;

bool hasWrapper(const ConsoleLine& l) { return l.rank >= 0 || l.localRank >= 0 || !l.host.empty() || l.time || l.yearless || l.shellTrace; }

// How much an event says: the fields its line gave.
int fieldsOf(const ConsoleEvent& e) {
    return (e.rank >= 0) + !e.host.empty() + (e.seq >= 0) + !e.op.empty() + (e.numel >= 0) + (e.timeoutMs > 0) + !e.group.empty() +
           (e.lastEnqueued >= 0) + (e.lastCompleted >= 0) + (e.exitCode != 0) + (e.signal != 0) + (e.localRank >= 0) + (e.device >= 0) +
           (e.world > 0) + !e.job.empty() + e.time.has_value() + (e.stepNumber >= 0);
}

std::optional<ConsoleEvent> eventOf(std::string_view text, ConsoleKinds kinds) {
    for (std::size_t k = 0; kinds.any() && k < kConsoleKindCount; ++k)
        if (kinds.test(k))
            if (auto e = parseConsoleEvent(static_cast<ConsoleKind>(k), text)) return e;
    return std::nullopt;
}

}  // namespace

std::optional<PreparedLine> joinContinuation(const PreparedLine& a, const ConsoleEvent* eventA, const PreparedLine& b, const ConsoleEvent* eventB,
                                             std::size_t longest, std::size_t width, PreparedChunk& keep) {
    if (a.blank || b.blank || a.error >= 0 || b.error >= 0 || a.line.shellTrace || a.line.text.front() == '#') return std::nullopt;
    const std::string_view head = a.line.text, tail = b.line.text;
    std::string_view separator;
    bool cutAtWidth = false;
    if (!a.line.partial) {
        // Cut where it was printed: the continuation carries no wrapper of its own (and was
        // peeled of nothing), after a line that had one or that is as long as a terminal is wide.
        const bool bare = !hasWrapper(b.line) && tail.size() == b.rawSize;
        // At a width the log shows, or as long as the longest line and the next one just as long.
        // A line exactly as wide as a common terminal (80, 100, 120, 132, 160, 200 columns), the
        // longest so far and followed by a shorter bare line, is such a cut too: a log's one long
        // message shows no second line of that width.
        const bool wide = terminalWide(a.rawSize);
        cutAtWidth = a.rawSize >= kNarrowestWrap &&
                     (a.rawSize == width || (a.rawSize >= longest && (b.rawSize == a.rawSize || (wide && b.rawSize < a.rawSize))));
        if (!bare || (!cutAtWidth && !hasWrapper(a.line)) || (eventA && eventB)) return std::nullopt;
        // A cut at a width falls anywhere, inside a word too; a break the program printed
        // stood between words.
        const bool spaced = head.empty() || tail.empty() || head.back() == ' ' || head.back() == '\t' || tail.front() == ' ';
        if (!cutAtWidth && !spaced) separator = " ";
    }
    std::string joined;
    joined.reserve(head.size() + separator.size() + tail.size());
    joined.append(head).append(separator).append(tail);
    const ConsoleKinds kinds = matchConsoleKinds(joined);
    const std::optional<ConsoleEvent> event = eventOf(joined, kinds);
    if (!a.line.partial) {
        if (!event) return std::nullopt;
        const ConsoleKinds halves = matchConsoleKinds(head) | matchConsoleKinds(tail);
        const bool asSpecific = (!eventA || event->kind <= eventA->kind) && (!eventB || event->kind <= eventB->kind);
        // A phrase across the cut: the line is an event neither half was.
        const bool acrossTheCut = (kinds & ~halves).test(static_cast<std::size_t>(event->kind)) && asSpecific;
        // The first half began an event (or named one it could not be read as) and the rest completes it.
        // (A line cut at the width is completed by what follows it whatever the fields say.)
        const bool completes = !eventB && ((eventA && event->kind == eventA->kind && (cutAtWidth || fieldsOf(*event) > fieldsOf(*eventA))) ||
                                           (!eventA && matchConsoleKinds(head).test(static_cast<std::size_t>(event->kind))));
        // Cut at a width inside the message: the rest may read as an event on its own ("r: uncorrectable
        // ECC error encountered"), but it is the cut line's, which then reads as that event whole.
        const bool rest = cutAtWidth && !eventA && eventB && event->kind == eventB->kind;
        if (!acrossTheCut && !completes && !rest) return std::nullopt;
    }
    PreparedLine out = a;
    out.line.text = keep.plain.emplace_back(std::move(joined));
    out.line.partial = b.line.partial;
    out.rawSize = b.rawSize;  // its last piece's: whether that was cut too
    out.event = -1;
    if (!out.line.time && !out.line.yearless) {
        // The cut may have fallen inside a wrapper's time ("[E0603 07:12:41.5 42 ProcessGroupNCCL.cp" /
        // "p:616] ..."): peeled again whole, the line gives it (a yearless one is resolved, in the
        // log's order, with the line).
        ConsoleLinePeeler again;
        const ConsoleLine whole = again.peel(out.line.text);
        out.line.time = whole.time;
        out.line.yearless = whole.yearless;
        if (!out.line.dated) out.line.dated = whole.dated;
    }
    if (!out.line.time && !out.line.yearless) {
        try {
            out.timeInText = timeInLine(out.line.text);
        } catch (const TimeOutOfRange&) {
            return std::nullopt;  // read as the two lines it was, the first naming the bad date
        }
    }
    if (event && out.line.text.front() != '#') {
        // The event's views are into the text it was parsed from: parse the kept copy.
        if (auto kept = eventOf(out.line.text, kinds)) {
            out.event = static_cast<std::int32_t>(keep.events.size());
            keep.events.push_back(*kept);
        }
    }
    return out;
}

}  // namespace faultline
