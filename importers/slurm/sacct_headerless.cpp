#include "importers/slurm/sacct_headerless.h"

#include "importers/text/text_parse.h"

#include <algorithm>

namespace faultline {

const std::vector<std::string_view>& sacctDelimiters() {
    // Longest first: "|#" is not read as "|" with fields that start with "#".
    static const std::vector<std::string_view> kDelimiters = {"|#", "::", "\xe2\x98\x83" /* ☃ */, "\xe2\x86\x92" /* → */, "|", ";", "\t", ",", "#", ":"};
    return kDelimiters;
}

namespace {

bool allDigits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), isDigit); }

// "123", "123_4" or "123_[1-9%2]" (an array), "123+1" (a heterogeneous component), each with
// an optional ".step" ("123.batch", "123.0", "123.extern").
bool jobIdLike(std::string_view s) {
    s = trim(s);
    const std::size_t dot = s.find('.');
    if (dot != std::string_view::npos) {
        if (dot + 1 >= s.size()) return false;
        s = s.substr(0, dot);
    }
    std::size_t n = 0;
    while (n < s.size() && isDigit(s[n])) ++n;
    if (n == 0) return false;
    std::string_view rest = s.substr(n);
    if (rest.empty()) return true;
    if (rest.front() == '+') return allDigits(rest.substr(1));
    if (rest.front() != '_') return false;
    rest.remove_prefix(1);
    return allDigits(rest) || (rest.size() > 2 && rest.front() == '[' && rest.back() == ']');
}

// sacct's job states, as it prints them ("CANCELLED by 1185", "CANCELLED+" when cut).
bool stateLike(std::string_view s) {
    s = trim(s);
    s = s.substr(0, s.find(' '));
    if (!s.empty() && s.back() == '+') s.remove_suffix(1);
    static constexpr std::string_view kStates[] = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "COMPLETING", "DEADLINE", "FAILED",  "NODE_FAIL",
                                                   "OUT_OF_MEMORY", "PENDING", "PREEMPTED", "RUNNING", "REQUEUED", "RESIZING", "REVOKED",
                                                   "SUSPENDED", "TIMEOUT"};
    return std::find(std::begin(kStates), std::end(kStates), s) != std::end(kStates);
}

// An exit code, "0:0", "1:0", "0:15".
bool exitCodeLike(std::string_view s) {
    s = trim(s);
    const std::size_t colon = s.find(':');
    return colon != std::string_view::npos && allDigits(s.substr(0, colon)) && allDigits(s.substr(colon + 1));
}

// "2024-06-01T08:00:00", or sacct's words for a time not yet come.
bool timeLike(std::string_view s) {
    s = trim(s);
    if (s == "Unknown" || s == "None") return true;
    return s.size() >= 19 && allDigits(s.substr(0, 4)) && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':';
}

struct Split {
    std::vector<std::vector<std::string_view>> rows;
    std::size_t columns = 0;
    bool trailing = false;
};

std::optional<Split> splitAll(const std::vector<std::string_view>& lines, std::string_view delim) {
    Split out;
    std::vector<std::string_view> parts;
    for (std::string_view l : lines) {
        splitBy(l, delim, parts);
        if (parts.size() < 3) return std::nullopt;
        if (out.rows.empty()) {
            out.trailing = parts.back().empty();
            out.columns = parts.size() - (out.trailing ? 1 : 0);
        }
        if (parts.size() != out.columns + (out.trailing ? 1 : 0)) return std::nullopt;
        if (out.trailing) parts.pop_back();
        out.rows.push_back(parts);
    }
    return out;
}

template <typename Pred>
bool columnIs(const Split& s, std::size_t c, Pred pred) {
    return std::all_of(s.rows.begin(), s.rows.end(), [&](const std::vector<std::string_view>& row) { return pred(row[c]); });
}

}  // namespace

std::optional<HeaderlessSacct> headerlessSacct(const std::vector<std::string_view>& lines) {
    if (lines.empty()) return std::nullopt;
    for (std::string_view delim : sacctDelimiters()) {
        const auto split = splitAll(lines, delim);
        if (!split || !columnIs(*split, 0, jobIdLike)) continue;
        std::optional<std::size_t> state;
        for (std::size_t c = 1; c < split->columns && !state; ++c)
            if (columnIs(*split, c, stateLike)) state = c;
        if (!state) continue;
        HeaderlessSacct out;
        out.delim = std::string(delim);
        out.columns = split->columns;
        out.trailing = split->trailing;
        out.state = *state;
        out.defaultFields = out.columns == 7 && *state == 5 && columnIs(*split, 6, exitCodeLike);
        if (out.defaultFields) {
            out.fieldsThatRead = std::string(kSacctDefaultFields);
            return out;
        }
        // Times in a row are Submit, Start, End (sacct's order); two are Start, End.
        std::vector<std::size_t> times;
        for (std::size_t c = 1; c < split->columns; ++c)
            if (c != *state && columnIs(*split, c, timeLike)) times.push_back(c);
        std::vector<std::string> names(split->columns, "-");
        names[0] = "JobID";
        names[*state] = "State";
        for (std::size_t c = 1; c < split->columns; ++c)
            if (c != *state && columnIs(*split, c, exitCodeLike)) names[c] = "ExitCode";
        const bool consecutive = times.size() >= 2 && times.back() - times.front() == times.size() - 1;
        if (consecutive && times.size() == 3) names[times[0]] = "Submit", names[times[1]] = "Start", names[times[2]] = "End";
        if (consecutive && times.size() == 2) names[times[0]] = "Start", names[times[1]] = "End";
        for (const std::string& n : names) out.fieldsThatRead += (out.fieldsThatRead.empty() ? "" : ",") + n;
        return out;
    }
    return std::nullopt;
}

}  // namespace faultline
