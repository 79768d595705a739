// PyTorch profiler (Kineto) Chrome-trace JSON, one file per rank, plain or gzipped.
// Streams traceEvents (JsonEventStream) and parses each event with simdjson on-demand;
// keeps only collectives and steps, so memory follows what is kept, not the file size.
#include "importers/text/json_parse.h"
#include "importers/pytorch/collective_names.h"
#include "importers/pytorch/readers.h"
#include "importers/text/json_event_stream.h"
#include "model/time.h"
#include "importers/text/text_parse.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace faultline {

namespace {

namespace od = simdjson::ondemand;

// Chrome-trace "ts"/"dur" are microseconds, written with up to three decimals (Kineto's
// nanosecond resolution). Read as text so that epoch microseconds keep every nanosecond,
// which a double would round away.
std::optional<std::int64_t> microsToNanos(std::string_view s) {
    s = trim(s);
    bool negative = false;
    if (!s.empty() && s.front() == '-') {
        negative = true;
        s.remove_prefix(1);
    }
    std::int64_t whole = 0, frac = 0, scale = 100;
    std::size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
        if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, s[i] - '0', &whole)) return std::nullopt;
    if (i == 0) return std::nullopt;
    if (i < s.size() && s[i] == '.') {
        for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
            if (scale > 0) frac += (s[i] - '0') * scale;
            scale /= 10;
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        const auto d = parseDouble(s);
        if (!d || !(std::abs(*d) < 9.2e15)) return std::nullopt;  // microseconds an int64 of nanoseconds holds
        return static_cast<std::int64_t>(*d * 1000.0) * (negative ? -1 : 1);
    }
    if (i != s.size()) return std::nullopt;
    std::int64_t ns = 0;
    if (__builtin_mul_overflow(whole, 1000, &ns) || __builtin_add_overflow(ns, frac, &ns)) return std::nullopt;
    return negative ? -ns : ns;
}

// "ncclDevKernel_AllGather_RING_LL(...)" / "ncclKernel_AllReduce_RING_LL_Sum_float(...)":
// the collective and, when the name carries it, the element type.
void parseKernelName(std::string_view name, std::string& op, std::string& dtype) {
    name = name.substr(0, name.find('('));
    name.remove_prefix(name.find('_') + 1);
    std::vector<std::string_view> parts;
    splitBy(name, "_", parts);
    const std::string_view kind = parts.empty() ? std::string_view() : parts[0];
    if (kind == "AllReduce") op = "allreduce";
    else if (kind == "AllGather") op = "allgather";
    else if (kind == "ReduceScatter") op = "reduce_scatter";
    else if (kind == "Broadcast") op = "broadcast";
    else if (kind == "Reduce") op = "reduce";
    else if (kind == "SendRecv") op = "sendrecv";
    else op = std::string(kind);
    // The element type follows the reduction op: ..._Sum_float, ..._Sum_int8_t, ..._Sum_f8e4m3.
    for (std::size_t i = 1; i + 1 < parts.size(); ++i)
        if (parts[i] == "Sum" || parts[i] == "Prod" || parts[i] == "Min" || parts[i] == "Max" || parts[i] == "PreMulSum" || parts[i] == "SumPostDiv") {
            std::string t;
            for (std::size_t j = i + 1; j < parts.size(); ++j) {
                if (j > i + 1) t += '_';
                t += parts[j];
            }
            dtype = t;
            break;
        }
}

struct RawCollective {
    ImportedCollective c;  // times relative to the trace's base until the end of the file
    bool fromKernel = false;
};

struct TraceState {
    std::vector<RawCollective> collectives;
    std::vector<ImportedStep> steps;
    std::int32_t device = -1;
    bool hasKernels = false;
    std::int64_t badEvents = 0;
};

void readArgs(od::object args, ImportedCollective& c, std::int64_t& inElems, std::int64_t& outElems, std::int32_t& device) {
    for (auto field : args) {
        std::string_view key;
        if (field.unescaped_key().get(key)) continue;
        od::value v = field.value();
        std::string_view s;
        std::int64_t n = 0;
        if (key == "Collective name") {
            if (!v.get_string().get(s)) c.op = std::string(s);
        } else if (key == "dtype") {
            if (!v.get_string().get(s)) c.dtype = std::string(s);
        } else if (key == "In msg nelems") {
            if (!v.get_int64().get(n)) inElems = n;
        } else if (key == "Out msg nelems") {
            if (!v.get_int64().get(n)) outElems = n;
        } else if (key == "Process Group Name") {
            if (!v.get_string().get(s)) c.group = std::string(s);
        } else if (key == "Process Group Ranks") {
            if (!v.get_string().get(s)) c.groupRanks = parseRankList(s);
        } else if (key == "device") {
            if (!v.get_int64().get(n) && n >= 0 && n < 1024) device = static_cast<std::int32_t>(n);
        } else if (key == "Seq" || key == "seq") {
            if (!v.get_int64().get(n)) c.seq = n;
        }
    }
}

void handleEvent(od::parser& parser, const char* data, std::size_t size, std::size_t padding, TraceState& st) {
    od::document doc;
    if (parser.iterate(data, size, size + padding).get(doc)) {
        ++st.badEvents;
        return;
    }
    od::object obj;
    if (doc.get_object().get(obj)) {
        ++st.badEvents;
        return;
    }
    std::string_view name, cat, ph, tsText, durText;
    ImportedCollective c;
    std::int64_t inElems = -1, outElems = -1;
    std::int32_t device = -1;
    for (auto field : obj) {
        std::string_view key;
        if (field.unescaped_key().get(key)) {
            ++st.badEvents;
            return;
        }
        od::value v = field.value();
        if (key == "name") {
            if (v.get_string().get(name)) return;
            // Most events are neither steps nor collectives: stop reading them here.
            if (!startsWith(name, "nccl") && !startsWith(name, "ProfilerStep#") && name != "record_param_comms") return;
        } else if (key == "cat") {
            if (v.get_string().get(cat)) return;
        } else if (key == "ph") {
            if (v.get_string().get(ph)) return;
        } else if (key == "ts") {
            tsText = v.raw_json_token();
        } else if (key == "dur") {
            durText = v.raw_json_token();
        } else if (key == "args") {
            od::object args;
            if (!v.get_object().get(args)) readArgs(args, c, inElems, outElems, device);
        }
    }
    if (ph != "X" || name.empty()) return;
    const auto ts = microsToNanos(tsText);
    const auto dur = microsToNanos(durText);
    EpochNs end = 0;
    // No step or collective lasts longer than a day: a longer one would only overflow the sums.
    if (!ts || !dur || *dur < 0 || *dur > kDay || __builtin_add_overflow(*ts, *dur, &end)) {
        ++st.badEvents;
        return;
    }
    if (startsWith(name, "ProfilerStep#")) {
        if (cat == "gpu_user_annotation") return;
        const auto step = parseInt(name.substr(13));
        if (!step) return;
        st.steps.push_back({-1, *step, end, *dur});
        return;
    }
    const bool kernel = cat == "kernel" && (startsWith(name, "ncclKernel_") || startsWith(name, "ncclDevKernel_"));
    const bool cpuRecord = name == "record_param_comms" && !c.op.empty();
    if (!kernel && !cpuRecord) return;
    if (kernel) {
        st.hasKernels = true;
        std::string op, dtype;
        parseKernelName(name, op, dtype);
        if (c.op.empty()) c.op = op;
        if (c.dtype.empty()) c.dtype = dtype;
        if (device >= 0) st.device = device;
    }
    const std::int64_t elems = std::max(inElems, outElems);
    if (elems > 0 && __builtin_mul_overflow(elems, dtypeBytes(c.dtype), &c.bytes)) c.bytes = 0;  // absurd: size unknown
    c.enter = *ts;
    c.exit = end;
    st.collectives.push_back({std::move(c), kernel});
}

}  // namespace

void importKineto(const std::string& path, ImportContext& ctx) {
    JsonEventStream stream(path, {"nccl", "ProfilerStep#", "record_param_comms"});
    od::parser parser;
    TraceState st;
    stream.run([&](const char* data, std::size_t size, std::size_t padding) { handleEvent(parser, data, size, padding, st); },
               [&](double progress) { ctx.tick(progress); });

    const nlohmann::json meta = parseJson(stream.metadata(), path + " (the fields outside traceEvents)", "a Chrome-trace JSON object");
    EpochNs base = 0;
    if (auto it = meta.find("baseTimeNanoseconds"); it != meta.end() && it->is_number_integer()) base = it->get<std::int64_t>();
    std::int32_t rank = 0;
    bool rankKnown = false;
    if (auto di = meta.find("distributedInfo"); di != meta.end() && di->is_object()) {
        if (auto r = di->find("rank"); r != di->end() && r->is_number_integer()) {
            if (r->get<std::int64_t>() < 0 || r->get<std::int64_t>() > kMaxRank)
                throw Error(path + ": distributedInfo.rank " + r->dump() + " is not a rank (expected 0 to " + std::to_string(kMaxRank) + ")");
            rank = r->get<std::int32_t>();
            rankKnown = true;
        }
        if (auto w = di->find("world_size"); w != di->end() && w->is_number_integer() && w->get<std::int64_t>() > 0 &&
                                               w->get<std::int64_t>() <= kMaxRank + 1)
            ctx.events.worldSize = std::max(ctx.events.worldSize, w->get<std::int32_t>());
    }
    if (!rankKnown)
        ctx.report.warnings.push_back(path + ": no distributedInfo.rank; taken as rank 0");
    ctx.events.worldSize = std::max(ctx.events.worldSize, rank + 1);
    if (auto h = meta.find("host_name"); h != meta.end() && h->is_string() && !h->get<std::string>().empty())
        ctx.events.placements.push_back({rank, h->get<std::string>(), st.device});
    ctx.report.ranks.insert(rank);
    if (st.badEvents > 0) {
        ctx.report.skippedLines += st.badEvents;
        ctx.report.warnings.push_back(path + ": " + std::to_string(st.badEvents) + " trace event(s) were not valid JSON objects with ts and a dur of 0 to a day; skipped");
    }

    // GPU kernels time a collective where it ran; the CPU-side record only when the trace
    // has no kernels (CPU-only captures). Using both would count each collective twice.
    // Times are relative to baseTimeNanoseconds; the sum must still be a time a run can hold.
    auto absolute = [&](EpochNs t) {
        EpochNs out = 0;
        if (__builtin_add_overflow(t, base, &out) || out < 0)
            throw Error(path + ": baseTimeNanoseconds " + std::to_string(base) + " puts events outside 1970-2262, the years a run can hold");
        return out;
    };
    for (RawCollective& r : st.collectives) {
        if (st.hasKernels != r.fromKernel) continue;
        r.c.rank = rank;
        r.c.enter = absolute(r.c.enter);
        r.c.exit = absolute(r.c.exit);
        if (r.c.group.empty()) r.c.group = "unknown";
        ctx.report.seen(r.c.enter);
        ctx.report.seen(r.c.exit);
        ctx.events.collectives.push_back(std::move(r.c));
        ctx.report.count("collectives");
    }
    for (ImportedStep& s : st.steps) {
        s.rank = rank;
        s.end = absolute(s.end);
        ctx.report.seen(s.end - s.duration);
        ctx.report.seen(s.end);
        ctx.events.steps.push_back(s);
        ctx.report.count("steps");
    }
    ctx.report.count("trace events", stream.eventCount());
}

}  // namespace faultline
