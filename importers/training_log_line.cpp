#include "training_log_line.h"

#include "text_parse.h"

#include <cctype>

namespace faultline {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The integer right after `key` (skipping spaces), or nullopt.
std::optional<std::int64_t> intAfter(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && isDigit(line[i])) ++i;
    if (i == start) return std::nullopt;
    return parseInt(line.substr(start, i - start));
}

std::optional<double> numberAfter(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && (isDigit(line[i]) || line[i] == '.' || line[i] == 'e' || line[i] == 'E' || line[i] == '+' || line[i] == '-')) ++i;
    return parseDouble(line.substr(start, i - start));
}

}  // namespace

std::optional<EpochNs> timeInLine(std::string_view line) {
    // A date needs "dddd-dd-dd": look only where a '-' sits 4 characters after a digit run.
    for (std::size_t i = 0; i + 19 <= line.size(); ++i) {
        if (line[i + 4] != '-' || !isDigit(line[i]) || (i > 0 && isDigit(line[i - 1]))) continue;
        std::size_t used = 0;
        if (auto t = parseIsoTime(line.substr(i), &used)) return t;
    }
    return std::nullopt;
}

std::optional<EpochNs> glogTime(std::string_view line, int year) {
    // "[rank3]:[E1022 13:45:01.123456 1234 ProcessGroupNCCL.cpp:616]" or "E1022 13:45:01.123456 ..."
    for (std::size_t i = 0; i + 14 <= line.size() && i < 64; ++i) {
        const char c = line[i];
        if ((c != 'E' && c != 'W' && c != 'I' && c != 'F') || (i > 0 && std::isalnum(static_cast<unsigned char>(line[i - 1])))) continue;
        // glog writes MMDD ("E0610"); c10's own logger (month*100 + day) drops the zero ("E610").
        std::size_t n = 0;
        while (i + 1 + n < line.size() && isDigit(line[i + 1 + n])) ++n;
        if ((n != 3 && n != 4) || i + 1 + n + 9 > line.size() || line[i + 1 + n] != ' ') continue;
        const auto mmdd = parseInt(line.substr(i + 1, n));
        if (!mmdd) continue;
        const std::int64_t month = *mmdd / 100, day = *mmdd % 100;
        if (month < 1 || month > 12 || day < 1 || day > 31) continue;
        const auto clock = parseClock(line.substr(i + 2 + n));
        if (!clock) continue;
        std::int64_t frac = 0;
        std::size_t j = i + 2 + n + 8;
        if (j < line.size() && line[j] == '.') {
            std::int64_t scale = 100'000'000;
            for (++j; j < line.size() && isDigit(line[j]); ++j) {
                frac += (line[j] - '0') * scale;
                scale /= 10;
            }
        }
        return epochFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day), *clock, frac);
    }
    return std::nullopt;
}

std::optional<MegatronIteration> parseMegatronIteration(std::string_view line, bool& bad) {
    bad = false;
    if (!contains(line, "elapsed time per iteration (ms):")) return std::nullopt;
    const auto iteration = intAfter(line, "iteration");
    const auto elapsed = numberAfter(line, "elapsed time per iteration (ms):");
    if (!iteration || !elapsed || *elapsed < 0) {
        bad = true;
        return std::nullopt;
    }
    return MegatronIteration{*iteration, *elapsed};
}

std::optional<CheckpointLine> parseCheckpointLine(std::string_view line) {
    CheckpointLine out;
    if (contains(line, "successfully saved checkpoint")) {
        out.event = CheckpointEvent::SaveEnd;
        out.step = intAfter(line, "iteration").value_or(-1);
    } else if (contains(line, "saving checkpoint at iteration")) {
        out.event = CheckpointEvent::SaveBegin;
        out.step = intAfter(line, "iteration").value_or(-1);
    } else if (contains(line, "successfully loaded checkpoint")) {
        out.event = CheckpointEvent::LoadEnd;
        out.step = intAfter(line, "at iteration").value_or(-1);
    } else if (contains(line, "loading checkpoint from")) {
        out.event = CheckpointEvent::LoadBegin;
        out.step = intAfter(line, "at iteration").value_or(-1);
    } else if (contains(line, "Finished saving the checkpoint")) {
        out.event = CheckpointEvent::SaveEnd;
        out.seconds = numberAfter(line, " in").value_or(-1);
    } else if (contains(line, "Saving the checkpoint") || contains(line, "Saving a full checkpoint") ||
               contains(line, "Saving a model only checkpoint")) {
        out.event = CheckpointEvent::SaveBegin;
        out.step = intAfter(line, "step").value_or(-1);
    } else if (contains(line, "Finished loading the checkpoint")) {
        out.event = CheckpointEvent::LoadEnd;
        out.seconds = numberAfter(line, " in").value_or(-1);
    } else if (contains(line, "Loading the checkpoint")) {
        out.event = CheckpointEvent::LoadBegin;
        out.step = intAfter(line, "at step").value_or(-1);
    } else {
        return std::nullopt;
    }
    return out;
}

std::optional<double> parseCheckpointTimer(std::string_view line, bool& isSave) {
    std::string_view key;
    if (contains(line, "save-checkpoint")) {
        key = "save-checkpoint";
        isSave = true;
    } else if (contains(line, "load-checkpoint")) {
        key = "load-checkpoint";
        isSave = false;
    } else {
        return std::nullopt;
    }
    std::string_view rest = line.substr(line.find(key) + key.size());
    // "save-checkpoint: 12.5" or "save-checkpoint ....: (12.5, 13.1)"
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    rest = trim(rest.substr(colon + 1));
    if (!rest.empty() && rest.front() == '(') {
        const std::size_t comma = rest.find(',');
        const std::size_t close = rest.find(')');
        if (comma == std::string_view::npos || close == std::string_view::npos || close < comma) return std::nullopt;
        return parseDouble(rest.substr(comma + 1, close - comma - 1));
    }
    const std::size_t end = rest.find_first_of(" |");
    return parseDouble(rest.substr(0, end));
}

std::optional<std::int64_t> parseTitanStep(std::string_view line) {
    const std::size_t info = line.find(" - INFO - step:");
    if (info == std::string_view::npos) return std::nullopt;
    if (!contains(line, "loss")) return std::nullopt;
    return intAfter(line.substr(info), "step:");
}

std::optional<WatchdogTimeout> parseWatchdogTimeout(std::string_view line) {
    if (!contains(line, "Watchdog caught collective operation timeout")) return std::nullopt;
    WatchdogTimeout out;
    if (auto r = intAfter(line, "[Rank ")) out.rank = static_cast<std::int32_t>(*r);
    else if (auto r2 = intAfter(line, "[rank")) out.rank = static_cast<std::int32_t>(*r2);
    out.seq = intAfter(line, "SeqNum=").value_or(-1);
    out.timeoutMs = intAfter(line, "Timeout(ms)=").value_or(0);
    if (const std::size_t at = line.find("OpType="); at != std::string_view::npos) {
        std::string_view rest = line.substr(at + 7);
        out.op = std::string(rest.substr(0, rest.find_first_of(", )")));
    }
    return out;
}

std::optional<SlurmCancel> parseSlurmCancel(std::string_view line) {
    const std::size_t at = line.find("*** JOB ");
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view rest = line.substr(at + 8);
    const std::size_t on = rest.find(" ON ");
    const std::size_t cancelled = rest.find(" CANCELLED AT ");
    if (on == std::string_view::npos || cancelled == std::string_view::npos || cancelled < on) return std::nullopt;
    SlurmCancel out;
    out.job = std::string(rest.substr(0, on));
    out.host = std::string(rest.substr(on + 4, cancelled - on - 4));
    std::string_view when = rest.substr(cancelled + 14);
    std::size_t used = 0;
    const auto t = parseIsoTime(when, &used);
    if (!t) return std::nullopt;
    out.time = *t;
    std::string_view reason = trim(when.substr(used));
    if (const std::size_t stars = reason.find("***"); stars != std::string_view::npos) reason = trim(reason.substr(0, stars));
    out.reason = std::string(reason);
    return out;
}

}  // namespace faultline
