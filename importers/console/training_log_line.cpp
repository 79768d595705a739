#include "importers/console/training_log_line.h"

#include "importers/text/text_parse.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace faultline {

namespace {


// The integer right after `key` (skipping spaces), or nullopt.
std::optional<std::int64_t> unsignedAfter(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && isDigit(line[i])) ++i;
    if (i == start) return std::nullopt;
    return parseInt(line.substr(start, i - start));
}

}  // namespace

std::optional<EpochNs> timeInLine(std::string_view line) {
    // A date needs "dddd-dd-dd": look only where a '-' sits 4 characters after a digit run,
    // and find the '-' with memchr (most lines have none: a loop over every byte was a tenth
    // of reading a big log).
    if (line.size() < 19) return std::nullopt;
    const char* const begin = line.data();
    const char* const last = begin + (line.size() - 15);  // the last place a date's first '-' can be
    for (const char* dash = begin + 4; dash <= last;) {
        dash = static_cast<const char*>(std::memchr(dash, '-', static_cast<std::size_t>(last - dash) + 1));
        if (!dash) break;
        const std::size_t i = static_cast<std::size_t>(dash - begin) - 4;
        ++dash;
        if (!isDigit(line[i]) || (i > 0 && isDigit(line[i - 1]))) continue;
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
    const auto iteration = unsignedAfter(line, "iteration");
    const auto elapsed = numberAfter(line, "elapsed time per iteration (ms):");
    if (!iteration || !elapsed || *elapsed < 0) {
        bad = true;
        return std::nullopt;
    }
    return MegatronIteration{*iteration, *elapsed};
}

namespace {

// One kind of checkpoint line: the phrase that names it, and where its step, duration and
// path are. Looked up in order: the first phrase the line contains decides.
struct CheckpointPhrase {
    std::string_view phrase;
    CheckpointEvent event;
    std::string_view stepKey;     // the step is the number after this; empty: the line has none
    std::string_view secondsKey;  // the duration in seconds is the number after this
    bool pathFollows = false;     // the checkpoint's path follows the phrase: its step
};

constexpr CheckpointPhrase kCheckpointPhrases[] = {
    // Megatron-LM (its async save's finalisation prints the same "successfully saved").
    {"successfully saved checkpoint", CheckpointEvent::SaveEnd, "iteration", {}},
    {"saving checkpoint at iteration", CheckpointEvent::SaveBegin, "iteration", {}},
    {"scheduled an async checkpoint save at iteration", CheckpointEvent::SaveBegin, "iteration", {}},
    {"successfully loaded checkpoint", CheckpointEvent::LoadEnd, "at iteration", {}},
    {"loading checkpoint from", CheckpointEvent::LoadBegin, "at iteration", {}},
    // torchtitan
    {"Finished saving the checkpoint", CheckpointEvent::SaveEnd, {}, " in"},
    {"Saving the checkpoint", CheckpointEvent::SaveBegin, "step", {}},
    {"Saving a full checkpoint", CheckpointEvent::SaveBegin, "step", {}},
    {"Saving a model only checkpoint", CheckpointEvent::SaveBegin, "step", {}},
    {"Finished loading the checkpoint", CheckpointEvent::LoadEnd, {}, " in"},
    {"Loading the checkpoint", CheckpointEvent::LoadBegin, "at step", {}},
    // PyTorch Distributed Checkpoint: the background process that writes an async_save.
    {"Received async checkpoint request with id=", CheckpointEvent::SaveBegin, {}, {}, true},
    {"Completed checkpoint save request for checkpoint_id=", CheckpointEvent::SaveEnd, {}, {}, true},
    {"Checkpoint save failed for checkpoint_id=", CheckpointEvent::SaveFailed, {}, {}, true},
    // NVIDIA Resiliency Extension's async checkpointing: scheduled, then finalised.
    {"to schedule async ckpt", CheckpointEvent::SaveBegin, {}, {}},
    {"finalize took ", CheckpointEvent::SaveEnd, {}, {}},
    // Hugging Face Trainer (and LlamaFactory, which runs it), DeepSpeed's engine.
    {"Saving model checkpoint to ", CheckpointEvent::SaveBegin, {}, {}, true},
    {"Saving model checkpoint: ", CheckpointEvent::SaveBegin, {}, {}, true},
    {"Loading model from ", CheckpointEvent::LoadBegin, {}, {}, true},
    {"Model weights saved in ", CheckpointEvent::SaveEnd, {}, {}, true},
    // Lightning's ModelCheckpoint (NeMo trains with it) says so once the file is written;
    // NeMo's async save: scheduled, then finalised.
    {"saving model to ", CheckpointEvent::SaveEnd, {}, {}, true},
    {"Scheduled async checkpoint save for ", CheckpointEvent::SaveBegin, {}, {}, true},
    {"Async checkpoint save for step", CheckpointEvent::SaveEnd, "step", {}},
    {"Restoring states from the checkpoint path at ", CheckpointEvent::LoadBegin, {}, {}, true},
    {"Restored all states from the checkpoint", CheckpointEvent::LoadEnd, {}, {}},
};

// The text of a Python repr'd string field: key "'name': '" -> value. Looked up on every
// line, so no string is built.
std::optional<std::string_view> quotedField(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t from = at + key.size();
    const std::size_t to = line.find('\'', from);
    if (to == std::string_view::npos) return std::nullopt;
    return line.substr(from, to - from);
}

// DCP's method logger: one Python dict per call of save/async_save/load, at its start and
// end ("event"), with the wall time in ns ("time") and at the end how long it took.
std::optional<CheckpointLine> parseDcpEvent(std::string_view line) {
    const auto func = quotedField(line, "'func_name': '");
    if (!func) return std::nullopt;
    const auto event = quotedField(line, "'event': '");
    if (!event) return std::nullopt;
    const bool save = *func == "save" || *func == "save_state_dict" || *func == "async_save";
    const bool load = *func == "load" || *func == "load_state_dict";
    if (!save && !load) return std::nullopt;  // staging, the daemon's start: no checkpoint of their own
    CheckpointLine out;
    if (*event == "start") out.event = save ? CheckpointEvent::SaveBegin : CheckpointEvent::LoadBegin;
    else if (*event == "exception") out.event = save ? CheckpointEvent::SaveFailed : CheckpointEvent::LoadFailed;
    // async_save returns once the state is staged; its background save ends the checkpoint.
    else if (*event == "end" && *func != "async_save") out.event = save ? CheckpointEvent::SaveEnd : CheckpointEvent::LoadEnd;
    else return std::nullopt;
    if (const auto id = quotedField(line, "'checkpoint_id': '")) out.step = stepInCheckpointPath(*id);
    if (const auto ns = unsignedAfter(line, "'time':"); ns && *ns > 0) out.at = *ns;
    if (const auto spent = unsignedAfter(line, "'times_spent':")) out.seconds = static_cast<double>(*spent) / 1e9;
    return out;
}

// The path after a phrase: "id=/ckpt/step-10", "checkpoint_id=_CheckpointRequestIdentifier(
// checkpoint_id='/ckpt/step-10', uuid=...)", "checkpoint_id=/ckpt/step-10: error".
std::string_view pathAfter(std::string_view rest) {
    if (const std::size_t inner = rest.find("checkpoint_id="); inner != std::string_view::npos) rest = rest.substr(inner + 14);
    while (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) rest.remove_prefix(1);
    std::size_t end = rest.find_first_of(" '\",)");
    if (const std::size_t colon = rest.find(": "); colon < end) end = colon;
    return rest.substr(0, end);
}

}  // namespace

std::int64_t stepInCheckpointPath(std::string_view path) {
    static constexpr std::string_view kKeys[] = {"step", "iter", "checkpoint", "ckpt"};
    std::int64_t step = -1;
    for (std::size_t i = 0; i < path.size(); ++i) {
        for (std::string_view key : kKeys) {
            if (path.substr(i, key.size()) != key) continue;
            std::size_t j = i + key.size();
            while (j < path.size() && (path[j] == '-' || path[j] == '_' || path[j] == '=')) ++j;
            const std::size_t digits = j;
            while (j < path.size() && isDigit(path[j])) ++j;
            // The last directory that names a step is the checkpoint's own.
            if (j > digits) step = parseInt(path.substr(digits, j - digits)).value_or(step);
        }
    }
    return step;
}

std::optional<CheckpointLine> parseCheckpointLine(std::string_view line) {
    if (auto dcp = parseDcpEvent(line)) return dcp;
    for (const CheckpointPhrase& p : kCheckpointPhrases) {
        const std::size_t at = line.find(p.phrase);
        if (at == std::string_view::npos) continue;
        CheckpointLine out;
        out.event = p.event;
        if (!p.stepKey.empty()) out.step = unsignedAfter(line, p.stepKey).value_or(-1);
        if (!p.secondsKey.empty()) out.seconds = numberAfter(line, p.secondsKey).value_or(-1);
        if (p.pathFollows) out.step = stepInCheckpointPath(pathAfter(line.substr(at + p.phrase.size())));
        out.bytes = sizeInLine(line);
        return out;
    }
    return std::nullopt;
}

std::int64_t sizeInLine(std::string_view line) {
    static constexpr std::pair<std::string_view, double> kUnits[] = {
        {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"bytes", 1.0}};
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (!isDigit(line[i]) || (i > 0 && (isDigit(line[i - 1]) || line[i - 1] == '.'))) continue;
        std::size_t j = i;
        while (j < line.size() && (isDigit(line[j]) || line[j] == '.')) ++j;
        const auto value = parseDouble(line.substr(i, j - i));
        std::size_t k = j;
        while (k < line.size() && line[k] == ' ') ++k;
        for (const auto& [unit, scale] : kUnits)
            if (value && line.substr(k, unit.size()) == unit && (k + unit.size() == line.size() || !std::isalpha(static_cast<unsigned char>(line[k + unit.size()])))) {
                // No checkpoint is an exabyte: a larger figure is no size (and would not fit).
                const double bytes = *value * scale;
                return bytes >= 0 && bytes <= 1e18 ? static_cast<std::int64_t>(bytes) : 0;
            }
        i = j;
    }
    return 0;
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

std::optional<RankPrefix> rankPrefix(std::string_view line) {
    RankPrefix out;
    std::string_view rest;
    if (startsWith(line, "[rank")) rest = line.substr(5);
    else if (startsWith(line, "[default")) {
        rest = line.substr(8);
        out.local = true;
    } else {
        return std::nullopt;
    }
    std::size_t n = 0;
    while (n < rest.size() && n < 7 && isDigit(rest[n])) ++n;
    if (n == 0 || rest.substr(n, 2) != "]:") return std::nullopt;
    out.rank = static_cast<std::int32_t>(*parseInt(rest.substr(0, n)));
    return out;
}

std::optional<NcclCommInit> parseNcclCommInit(std::string_view line) {
    const std::size_t info = line.find(" NCCL INFO comm 0x");
    if (info == std::string_view::npos) return std::nullopt;
    const std::string_view rest = line.substr(info);
    const auto rank = unsignedAfter(rest, " rank ");
    auto ranks = unsignedAfter(rest, " nRanks ");
    if (!ranks) ranks = unsignedAfter(rest, " nranks ");
    if (!rank || !ranks || *ranks <= 0 || *rank >= *ranks) return std::nullopt;
    // "HOST:PID:TID [DEV]" before it, after whatever prefix a launcher put on the line.
    std::string_view head = trim(line.substr(0, info));
    const std::size_t open = head.rfind(" [");
    if (open == std::string_view::npos || head.back() != ']') return std::nullopt;
    NcclCommInit out;
    out.device = static_cast<std::int32_t>(parseInt(head.substr(open + 2, head.size() - open - 3)).value_or(-1));
    head = head.substr(0, open);
    if (const std::size_t space = head.rfind(' '); space != std::string_view::npos) head = head.substr(space + 1);
    if (const std::size_t tag = head.rfind("]:"); tag != std::string_view::npos) head = head.substr(tag + 2);  // "[default3]:"
    if (const std::size_t tag = head.rfind(">:"); tag != std::string_view::npos) head = head.substr(tag + 2);  // "[1,3]<stdout>:"
    const std::size_t tid = head.rfind(':');
    const std::size_t pid = tid == std::string_view::npos || tid == 0 ? std::string_view::npos : head.rfind(':', tid - 1);
    if (pid == std::string_view::npos || pid == 0) return std::nullopt;
    out.host = std::string(head.substr(0, pid));
    out.rank = static_cast<std::int32_t>(*rank);
    out.ranks = static_cast<std::int32_t>(*ranks);
    // busId is the bus id as one hex number: domain << 20 | bus << 12 | device << 4 | function.
    if (const std::size_t at = rest.find(" busId "); at != std::string_view::npos) {
        std::string_view hex = rest.substr(at + 7);
        hex = hex.substr(0, hex.find(' '));
        std::uint64_t id = 0;
        bool ok = !hex.empty() && hex.size() <= 12;
        for (char c : hex) {
            const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (v < 0) ok = false;
            else id = id * 16 + static_cast<std::uint64_t>(v);
        }
        if (ok) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%04llx:%02llx:%02llx", static_cast<unsigned long long>(id >> 20),
                          static_cast<unsigned long long>((id >> 12) & 0xff), static_cast<unsigned long long>((id >> 4) & 0xff));
            out.pciBusId = buf;
        }
    }
    return out;
}

std::optional<std::string_view> parseWorkerGroupRestart(std::string_view line) {
    // ft_launcher on the nodes whose workers were healthy: "[default] Joining cluster restart
    // (group_rank=1)".
    if (const std::size_t join = line.find("Joining cluster restart"); join != std::string_view::npos) return trim(line.substr(join));
    if (!contains(line, "will restart worker group")) return std::nullopt;
    const std::size_t at = line.find("Worker group ");
    if (at == std::string_view::npos) return std::nullopt;
    return trim(line.substr(at));
}

std::optional<std::int64_t> parseTitanStep(std::string_view line) {
    const std::size_t info = line.find(" - INFO - step:");
    if (info == std::string_view::npos) return std::nullopt;
    if (!contains(line, "loss")) return std::nullopt;
    return unsignedAfter(line.substr(info), "step:");
}

std::optional<WatchdogTimeout> parseWatchdogTimeout(std::string_view line) {
    if (!contains(line, "Watchdog caught collective operation timeout")) return std::nullopt;
    WatchdogTimeout out;
    if (auto r = unsignedAfter(line, "[Rank ")) out.rank = static_cast<std::int32_t>(*r);
    else if (auto r2 = unsignedAfter(line, "[rank")) out.rank = static_cast<std::int32_t>(*r2);
    out.seq = unsignedAfter(line, "SeqNum=").value_or(-1);
    out.timeoutMs = unsignedAfter(line, "Timeout(ms)=").value_or(0);
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
