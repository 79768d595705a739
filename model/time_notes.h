#pragma once
// What an import says about a failure's time where the log did not print it whole, kept in the
// failure's detail (the run file keeps the detail as it is): "time inferred" (the
// line had no time: it took the lines' around it), "year assumed" (a yearless date: syslog's
// "Aug 17 06:18:01", glog's "E0610") and "time unknown" (a kernel line with no time in a file
// that gives none near it: placed at the end of the file's span, or at its last write). The importers append them; the incident view, the report
// and `incidents` say them beside the time.
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

inline constexpr std::string_view kTimeInferredNote = " (time inferred from the lines around it)";
inline constexpr std::string_view kYearAssumedNote = " (year assumed: the log does not print it)";
inline constexpr std::string_view kTimeUnknownNote = " (time unknown: the line has no time; placed at the end of the file's span)";
inline constexpr std::string_view kTimeUnknownAtWriteNote = " (time unknown: the line has no time; placed at the file's last write)";
// The import's invariants keep a failure whose time is impossible the same way, in their words.
inline constexpr std::string_view kUndatedMark = " (undated: ";

// The detail without the notes (the evidence's own "(FILE:LINE)" may follow them).
inline std::string withoutTimeNotes(std::string_view detail) {
    std::string out(detail);
    for (const std::string_view note : {kTimeInferredNote, kYearAssumedNote, kTimeUnknownNote, kTimeUnknownAtWriteNote})
        for (std::size_t at; (at = out.find(note)) != std::string::npos;) out.erase(at, note.size());
    return out;
}

// "time inferred", "year assumed", "time unknown": those the detail holds, in that order.
inline std::vector<std::string> timeNotesOf(std::string_view detail) {
    std::vector<std::string> out;
    if (detail.find(kTimeInferredNote) != std::string_view::npos) out.emplace_back("time inferred");
    if (detail.find(kYearAssumedNote) != std::string_view::npos) out.emplace_back("year assumed");
    if (detail.find(kTimeUnknownNote) != std::string_view::npos || detail.find(kTimeUnknownAtWriteNote) != std::string_view::npos ||
        detail.find(kUndatedMark) != std::string_view::npos)
        out.emplace_back("time unknown");
    return out;
}

}  // namespace faultline
