// PyTorch NCCL Flight Recorder dumps, one per rank: the pickle PyTorch writes (read by our
// safe unpickler) and the JSON variant. Both hold pg_config, pg_status and entries.
#include "collective_names.h"
#include "flight_recorder_document.h"
#include "formats.h"
#include "model/time.h"
#include "text_parse.h"

#include <map>

namespace faultline {

namespace {

// PyTorch names dumps "<prefix><rank>" (TORCH_NCCL_DEBUG_INFO_TEMP_FILE + rank): the rank
// is the number the file name ends with.
std::optional<std::int32_t> rankFromFileName(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (const std::size_t dot = name.find('.'); dot != std::string::npos) name.resize(dot);
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    if (i == name.size() || name.size() - i > 7) return std::nullopt;
    return static_cast<std::int32_t>(std::stol(name.substr(i)));
}

// Bytes of all tensors of one side: sum over tensors of (product of dims) x element size.
std::int64_t tensorBytes(const FlightRecorderValue& sizes, const FlightRecorderValue& dtypes) {
    if (!sizes.isList()) return 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const FlightRecorderValue tensor = sizes.item(i);
        if (!tensor.isList()) continue;
        std::int64_t elems = 1;
        for (std::size_t k = 0; k < tensor.size(); ++k) {
            const FlightRecorderValue d = tensor.item(k);
            const std::int64_t dim = d.isInt() ? d.integer() : 0;
            if (dim < 0 || __builtin_mul_overflow(elems, dim, &elems)) return 0;  // no tensor is that large: size unknown
        }
        const FlightRecorderValue dtype = dtypes.isList() && i < dtypes.size() ? dtypes.item(i) : FlightRecorderValue();
        std::int64_t bytes = 0;
        if (__builtin_mul_overflow(elems, dtypeBytes(dtype.isText() ? std::string(dtype.text()) : std::string()), &bytes) ||
            __builtin_add_overflow(total, bytes, &total))
            return 0;
    }
    return total;
}

void importDump(const FlightRecorderValue& dump, const std::string& path, ImportContext& ctx) {
    const FlightRecorderValue entries = dump["entries"];
    if (!dump.isDict() || !entries.isList())
        throw Error(path + ": expected a Flight Recorder dump: a dict with an \"entries\" list (and pg_config, pg_status), found " +
                    (dump.isDict() ? "\"entries\" holding " + entries.describe() : dump.describe()));
    std::optional<std::int32_t> rank;
    if (const FlightRecorderValue r = dump["rank"]; r.isInt()) {
        if (r.integer() < 0 || r.integer() > kMaxRank)
            throw Error(path + ": rank " + std::to_string(r.integer()) + " is not a rank (expected 0 to " + std::to_string(kMaxRank) + ")");
        rank = static_cast<std::int32_t>(r.integer());
    }
    if (!rank) rank = rankFromFileName(path);
    if (!rank) {
        ctx.report.warnings.push_back(path + ": the dump does not say its rank and the file name ends in no number; taken as rank 0");
        rank = 0;
    }
    ctx.report.ranks.insert(*rank);
    ctx.events.worldSize = std::max(ctx.events.worldSize, *rank + 1);

    // Process groups: name -> global ranks.
    std::map<std::string, std::vector<std::int32_t>, std::less<>> groups;
    if (const FlightRecorderValue pg = dump["pg_config"]; pg.isDict()) {
        for (std::size_t i = 0; i < pg.size(); ++i) {
            const FlightRecorderValue cfg = pg.value(i);
            if (!cfg.isDict()) continue;
            const std::string group = pg.keyText(i);
            const std::string name = cfg["name"].isText() ? std::string(cfg["name"].text()) : group;
            std::vector<std::int32_t> ranks;
            auto add = [&](std::int64_t x, const std::string& text) {
                if (x < 0 || x > kMaxRank)
                    throw Error(path + ": pg_config \"" + group + "\" lists rank " + text + ", not a rank (expected 0 to " +
                                std::to_string(kMaxRank) + ")");
                ranks.push_back(static_cast<std::int32_t>(x));
                ctx.events.worldSize = std::max(ctx.events.worldSize, static_cast<std::int32_t>(x + 1));
            };
            if (const FlightRecorderValue r = cfg["ranks"]; r.isText())
                for (std::int32_t x : parseRankList(std::string(r.text()))) add(x, std::to_string(x));
            else if (r.isList())
                for (std::size_t k = 0; k < r.size(); ++k)
                    if (const FlightRecorderValue x = r.item(k); x.isInt()) add(x.integer(), std::to_string(x.integer()));
            groups[name] = std::move(ranks);
        }
        ctx.report.count("process groups", static_cast<std::int64_t>(pg.size()));
    }

    for (std::size_t index = 0; index < entries.size(); ++index) {
        const FlightRecorderValue e = entries.item(index);
        auto where = [&] { return path + ": entries[" + std::to_string(index) + "]"; };
        if (!e.isDict()) {
            ctx.report.skip(where() + ": expected an entry dict, found " + e.describe());
            continue;
        }
        const FlightRecorderEntryValues v = flightRecorderEntryValues(e);
        auto number = [](const FlightRecorderValue& x, std::int64_t fallback) { return x.isInt() ? x.integer() : fallback; };
        ImportedCollective c;
        c.rank = *rank;
        std::string_view name = v.profilingName.isText() ? v.profilingName.text() : std::string_view();
        if (name.substr(0, 5) == "nccl:") name.remove_prefix(5);
        // "send 0->3", "recv 3<-0": the peers are in the group; the op is the first word.
        c.op = std::string(name.substr(0, name.find(' ')));
        if (c.op.empty()) {
            ctx.report.skip(where() + ": expected a profiling_name such as \"nccl:all_reduce\"");
            continue;
        }
        if (v.processGroup.isList() && v.processGroup.size() > 0 && v.processGroup.item(0).isText())
            c.group = std::string(v.processGroup.item(0).text());
        else
            c.group = std::to_string(number(v.pgId, -1));
        if (auto g = groups.find(c.group); g != groups.end()) c.groupRanks = g->second;
        const bool p2p = v.isP2P.boolean();
        c.seq = number(p2p ? v.p2pSeqId : v.collectiveSeqId, -1);
        const std::int64_t created = number(v.timeCreated, 0);
        const std::int64_t started = number(v.timeStarted, 0);
        const std::int64_t completed = number(v.timeCompleted, 0);
        if (created <= 0 && started <= 0) {
            ctx.report.skip(where() + ": expected time_created_ns");
            continue;
        }
        // A collective that never completed (the hang Flight Recorder exists to show) ends
        // where it began: the model has no "still running" state.
        c.enter = started > 0 ? started : created;
        c.exit = completed > 0 ? completed : c.enter;
        if (c.exit < c.enter || c.exit - c.enter > kDay) {
            ctx.report.skip(where() + ": expected time_discovered_completed_ns from its start to a day after it (no collective runs longer)");
            continue;
        }
        c.bytes = std::max(tensorBytes(v.inputSizes, v.inputDtypes), tensorBytes(v.outputSizes, v.outputDtypes));
        if (v.inputDtypes.isList() && v.inputDtypes.size() > 0 && v.inputDtypes.item(0).isText()) c.dtype = std::string(v.inputDtypes.item(0).text());
        const std::string_view state = v.state.isText() ? v.state.text() : std::string_view();
        ctx.report.count(state.empty() ? std::string("collectives without state") : "collectives " + std::string(state));
        ctx.report.count("collectives");
        ctx.report.seen(c.enter);
        ctx.report.seen(c.exit);
        ctx.events.collectives.push_back(std::move(c));
    }
}

}  // namespace

void importFlightRecorder(const std::string& path, ImportContext& ctx) {
    // Dumps are small (a ring buffer of the last few thousand entries): read whole.
    const FlightRecorderDocument doc(path);
    if (!doc.isPickle()) throw Error(path + ": byte 0: expected a pickle (protocol 2 or later), as PyTorch writes Flight Recorder dumps");
    ctx.tick(0.5);
    importDump(doc.root(), path, ctx);
}

void importFlightRecorderJson(const std::string& path, ImportContext& ctx) {
    const FlightRecorderDocument doc(path);
    if (doc.isPickle()) throw Error(path + ": a pickle, not the JSON variant of a Flight Recorder dump (import it as flight-recorder)");
    importDump(doc.root(), path, ctx);
}

}  // namespace faultline
