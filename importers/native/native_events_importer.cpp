// Faultline's own event formats, for what no tool writes (docs/formats.md,
// "faultline-events"): JSON Lines, one event object a line, or CSV with a header naming the
// same fields. Both go through one reader of a field -> value object.
#include "importers/text/json_parse.h"
#include "importers/native/readers.h"
#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace faultline {

namespace {

class FieldError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A time: ISO-8601 text or integer epoch nanoseconds.
EpochNs timeField(const nlohmann::json& o, const char* key, bool required) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty())) {
        if (required) throw FieldError(std::string("expected \"") + key + "\" (an ISO time or epoch nanoseconds)");
        return 0;
    }
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_string()) {
        const std::string s = it->get<std::string>();
        if (auto t = parseIsoTime(s)) return *t;
        if (auto n = parseInt(s)) return *n;
    }
    throw FieldError(std::string("\"") + key + "\" is not an ISO time or epoch nanoseconds");
}

std::int64_t intField(const nlohmann::json& o, const char* key, std::int64_t fallback, bool required = false) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty())) {
        if (required) throw FieldError(std::string("expected \"") + key + "\" (an integer)");
        return fallback;
    }
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_string())
        if (auto n = parseInt(it->get<std::string>())) return *n;
    throw FieldError(std::string("\"") + key + "\" is not an integer");
}

// A GPU's index on its host, or -1 where the event does not say.
std::int32_t localGpuField(const nlohmann::json& o) {
    const std::int64_t gpu = intField(o, "gpu", -1);
    if (gpu < -1 || gpu >= kMaxGpusPerNode)
        throw FieldError("\"gpu\" " + std::to_string(gpu) + " is not a GPU index on a host (0 to " + std::to_string(kMaxGpusPerNode - 1) + ")");
    return static_cast<std::int32_t>(gpu);
}

// A rank, or fallback where the event does not say.
std::int32_t rankField(const nlohmann::json& o, std::int32_t fallback, bool required = false) {
    const std::int64_t rank = intField(o, "rank", fallback, required);
    if (rank < fallback || rank >= kMaxRank)
        throw FieldError("\"rank\" " + std::to_string(rank) + " is not a rank (0 to " + std::to_string(kMaxRank - 1) + ")");
    return static_cast<std::int32_t>(rank);
}

double numberField(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return 0;
    if (it->is_number()) return it->get<double>();
    if (it->is_string() && it->get<std::string>().empty()) return 0;
    if (it->is_string())
        if (auto d = parseDouble(it->get<std::string>())) return *d;
    throw FieldError(std::string("\"") + key + "\" is not a number");
}

std::string stringField(const nlohmann::json& o, const char* key, bool required = false) {
    auto it = o.find(key);
    if (it != o.end() && it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    if (it != o.end() && it->is_number()) return it->dump();
    if (required) throw FieldError(std::string("expected \"") + key + "\" (text)");
    return {};
}

std::vector<std::int32_t> rankList(const nlohmann::json& o, const char* key) {
    std::vector<std::int32_t> out;
    auto it = o.find(key);
    if (it == o.end()) return out;
    if (it->is_array()) {
        for (const auto& r : *it)
            if (r.is_number_integer() && r.get<std::int64_t>() >= 0 && r.get<std::int64_t>() <= kMaxRank) out.push_back(r.get<std::int32_t>());
            else throw FieldError(std::string("\"") + key + "\" must list ranks (integers from 0 to " + std::to_string(kMaxRank) + ")");
    } else if (it->is_string()) {
        // CSV: "0 1 2 3" or "0;1;2;3"
        const std::string s = it->get<std::string>();
        std::int64_t v = 0;
        bool in = false;
        for (char c : s + " ") {
            if (c >= '0' && c <= '9') {
                v = v * 10 + (c - '0');
                if (v > kMaxRank) throw FieldError(std::string("\"") + key + "\" names a rank above " + std::to_string(kMaxRank));
                in = true;
            } else if (in) {
                out.push_back(static_cast<std::int32_t>(v));
                v = 0;
                in = false;
            }
        }
    }
    return out;
}

void addEvent(const nlohmann::json& o, ImportContext& ctx) {
    if (!o.is_object()) throw FieldError("expected an event object");
    const std::string kind = stringField(o, "kind", true);
    if (kind == "failure") {
        ImportedFailure f;
        f.time = timeField(o, "time", true);
        const std::string cause = stringField(o, "cause");
        f.xid = static_cast<std::int32_t>(intField(o, "xid", 0));
        if (!cause.empty()) {
            const auto c = rootCauseFromKey(cause);
            if (!c) throw FieldError("cause \"" + cause + "\" is not a root-cause key (e.g. faulty_gpu, gpu_hbm3_memory)");
            f.cause = *c;
        } else if (f.xid > 0) {
            f.cause = rootCauseForXid(f.xid).value_or(RootCause::Unknown);
        }
        f.where.host = stringField(o, "host");
        f.where.pciBusId = stringField(o, "pci_bus_id");
        f.where.localGpu = localGpuField(o);
        f.where.rank = rankField(o, -1);
        if (auto h = o.find("hosts"); h != o.end() && h->is_array())
            for (const auto& x : *h)
                if (x.is_string()) f.hosts.push_back(x.get<std::string>());
        f.detail = stringField(o, "detail");
        ctx.report.seen(f.time);
        ctx.events.failures.push_back(std::move(f));
        ctx.report.count("failures");
    } else if (kind == "collective") {
        ImportedCollective c;
        c.rank = rankField(o, 0, true);
        c.op = stringField(o, "op", true);
        c.group = stringField(o, "group");
        if (c.group.empty()) c.group = "unknown";
        c.groupRanks = rankList(o, "group_ranks");
        c.seq = intField(o, "seq", -1);
        c.enter = timeField(o, "enter", true);
        c.exit = timeField(o, "exit", false);
        if (c.exit == 0) c.exit = c.enter;
        if (c.exit < c.enter) throw FieldError("\"exit\" is before \"enter\"");
        if (c.exit - c.enter > kDay) throw FieldError("\"exit\" is more than a day after \"enter\": no collective runs that long");
        c.bytes = intField(o, "bytes", 0);
        ctx.report.seen(c.enter);
        ctx.report.seen(c.exit);
        ctx.report.ranks.insert(c.rank);
        ctx.events.collectives.push_back(std::move(c));
        ctx.report.count("collectives");
    } else if (kind == "step") {
        ImportedStep s;
        s.step = intField(o, "step", 0, true);
        s.end = timeField(o, "end", true);
        // A step of up to a day is plausible; beyond that (or negative) the number is wrong,
        // and past ~292 years it would not even fit the nanoseconds a step time is held in.
        const double ms = numberField(o, "duration_ms");
        if (!(ms >= 0 && ms <= 86'400'000)) throw FieldError("\"duration_ms\" must be from 0 to 86400000 (a day)");
        s.duration = static_cast<Nanos>(std::llround(ms * 1e6));
        s.rank = rankField(o, -1);
        ctx.report.seen(s.end);
        ctx.events.steps.push_back(s);
        ctx.report.count("steps");
    } else if (kind == "checkpoint") {
        ImportedCheckpoint c;
        const std::string type = stringField(o, "type");
        if (type != "save" && type != "load" && !type.empty()) throw FieldError("checkpoint \"type\" is \"save\" or \"load\"");
        c.kind = type == "load" ? CheckpointKind::Load : CheckpointKind::Save;
        c.begin = timeField(o, "begin", true);
        c.end = timeField(o, "end", true);
        if (c.end < c.begin) throw FieldError("\"end\" is before \"begin\"");
        c.step = intField(o, "step", 0);
        ctx.report.seen(c.begin);
        ctx.report.seen(c.end);
        ctx.events.checkpoints.push_back(c);
        ctx.report.count(c.kind == CheckpointKind::Load ? "checkpoint loads" : "checkpoint saves");
    } else if (kind == "placement") {
        RankPlacement p;
        p.rank = rankField(o, 0, true);
        p.host = stringField(o, "host", true);
        p.localGpu = localGpuField(o);
        ctx.events.placements.push_back(std::move(p));
        ctx.report.count("placements");
    } else {
        throw FieldError("kind \"" + kind + "\" is not failure, collective, step, checkpoint or placement");
    }
}

// One CSV record: fields separated by commas, "quoted" fields may hold commas and "" quotes.
std::vector<std::string> csvFields(std::string_view line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    if (quoted) throw FieldError("a quoted field is not closed");
    return out;
}

}  // namespace

void importNativeEvents(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    std::string_view line;
    std::vector<std::string> header;  // CSV only
    while (in.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        const std::string_view t = trim(line);
        if (t.empty() || t.front() == '#') continue;
        try {
            if (t.front() == '{') {
                nlohmann::json event;
                try {
                    event = parseJson(t, in.where(), "a Faultline event object");
                } catch (const Error& e) {
                    ctx.report.skip(e.what());
                    continue;
                }
                addEvent(event, ctx);
            } else if (header.empty()) {
                for (std::string& f : csvFields(t)) header.push_back(std::string(trim(f)));
                if (header.empty() || header.front() != "kind") in.fail("expected a JSON event object, or a CSV header starting with \"kind\"");
            } else {
                const std::vector<std::string> fields = csvFields(t);
                if (fields.size() != header.size())
                    throw FieldError("expected " + std::to_string(header.size()) + " comma-separated fields, found " + std::to_string(fields.size()));
                nlohmann::json o = nlohmann::json::object();
                for (std::size_t i = 0; i < fields.size(); ++i) o[header[i]] = std::string(trim(fields[i]));
                addEvent(o, ctx);
            }
        } catch (const FieldError& e) {
            ctx.report.skip(in.where() + ": " + e.what());
        } catch (const nlohmann::json::exception& e) {
            ctx.report.skip(in.where() + ": not a JSON event object (" + std::string(e.what()).substr(0, 120) + ")");
        }
    }
    const bool anything = !ctx.report.counts.empty();
    if (!anything && ctx.report.skippedLines > 0) throw Error(path + ": no line is a Faultline event (" + ctx.report.warnings.front() + ")");
    if (!anything) throw Error(path + ": no Faultline event in it (the file is empty or holds only a header and comments)");
}

}  // namespace faultline
