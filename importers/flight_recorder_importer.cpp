// PyTorch NCCL Flight Recorder dumps, one per rank: the pickle PyTorch writes (read by our
// safe unpickler) and the JSON variant. Both hold pg_config, pg_status and entries.
#include "json_parse.h"
#include "collective_names.h"
#include "formats.h"
#include "pickle_reader.h"
#include "read_whole_file.h"
#include "model/time.h"
#include "text_parse.h"

#include <nlohmann/json.hpp>

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

std::int64_t numberOr(const nlohmann::json& o, const char* key, std::int64_t fallback) {
    auto it = o.find(key);
    return it != o.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

std::string stringOr(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Bytes of all tensors of one side: sum over tensors of (product of dims) x element size.
std::int64_t tensorBytes(const nlohmann::json& sizes, const nlohmann::json& dtypes) {
    if (!sizes.is_array()) return 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (!sizes[i].is_array()) continue;
        std::int64_t elems = 1;
        for (const auto& d : sizes[i]) {
            const std::int64_t dim = d.is_number_integer() ? d.get<std::int64_t>() : 0;
            if (dim < 0 || __builtin_mul_overflow(elems, dim, &elems)) return 0;  // no tensor is that large: size unknown
        }
        const std::string dtype = dtypes.is_array() && i < dtypes.size() && dtypes[i].is_string() ? dtypes[i].get<std::string>() : "";
        std::int64_t bytes = 0;
        if (__builtin_mul_overflow(elems, dtypeBytes(dtype), &bytes) || __builtin_add_overflow(total, bytes, &total)) return 0;
    }
    return total;
}

void importDump(const nlohmann::json& dump, const std::string& path, ImportContext& ctx) {
    if (!dump.is_object() || !dump.contains("entries") || !dump["entries"].is_array())
        throw Error(path + ": expected a Flight Recorder dump: a dict with an \"entries\" list (and pg_config, pg_status)");
    std::optional<std::int32_t> rank;
    if (auto it = dump.find("rank"); it != dump.end() && it->is_number_integer()) {
        const std::int64_t r = it->get<std::int64_t>();
        if (r < 0 || r > kMaxRank) throw Error(path + ": rank " + std::to_string(r) + " is not a rank (expected 0 to " + std::to_string(kMaxRank) + ")");
        rank = static_cast<std::int32_t>(r);
    }
    if (!rank) rank = rankFromFileName(path);
    if (!rank) {
        ctx.report.warnings.push_back(path + ": the dump does not say its rank and the file name ends in no number; taken as rank 0");
        rank = 0;
    }
    ctx.report.ranks.insert(*rank);
    ctx.events.worldSize = std::max(ctx.events.worldSize, *rank + 1);

    // Process groups: name -> global ranks.
    std::map<std::string, std::vector<std::int32_t>> groups;
    if (auto pg = dump.find("pg_config"); pg != dump.end() && pg->is_object()) {
        for (const auto& [key, cfg] : pg->items()) {
            if (!cfg.is_object()) continue;
            const std::string name = cfg.contains("name") && cfg["name"].is_string() ? cfg["name"].get<std::string>() : key;
            const std::string& group = key;  // a lambda may not capture a structured binding (clang)
            std::vector<std::int32_t> ranks;
            auto add = [&](std::int64_t x, const std::string& text) {
                if (x < 0 || x > kMaxRank)
                    throw Error(path + ": pg_config \"" + group + "\" lists rank " + text + ", not a rank (expected 0 to " +
                                std::to_string(kMaxRank) + ")");
                ranks.push_back(static_cast<std::int32_t>(x));
                ctx.events.worldSize = std::max(ctx.events.worldSize, static_cast<std::int32_t>(x + 1));
            };
            if (auto r = cfg.find("ranks"); r != cfg.end()) {
                if (r->is_string())
                    for (std::int32_t x : parseRankList(r->get<std::string>())) add(x, std::to_string(x));
                else if (r->is_array())
                    for (const auto& x : *r) {
                        if (x.is_number_unsigned()) add(x.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxRank) ? -1 : x.get<std::int64_t>(), x.dump());
                        else if (x.is_number_integer()) add(x.get<std::int64_t>(), x.dump());
                    }
            }
            groups[name] = std::move(ranks);
        }
        ctx.report.count("process groups", static_cast<std::int64_t>(pg->size()));
    }

    std::size_t index = 0;
    for (const nlohmann::json& e : dump["entries"]) {
        const std::string where = path + ": entries[" + std::to_string(index++) + "]";
        if (!e.is_object()) {
            ctx.report.skip(where + ": expected an entry dict");
            continue;
        }
        ImportedCollective c;
        c.rank = *rank;
        std::string name = stringOr(e, "profiling_name");
        if (startsWith(name, "nccl:")) name.erase(0, 5);
        // "send 0->3", "recv 3<-0": the peers are in the group; the op is the first word.
        c.op = name.substr(0, name.find(' '));
        if (c.op.empty()) {
            ctx.report.skip(where + ": expected a profiling_name such as \"nccl:all_reduce\"");
            continue;
        }
        if (auto pg = e.find("process_group"); pg != e.end() && pg->is_array() && !pg->empty() && (*pg)[0].is_string())
            c.group = (*pg)[0].get<std::string>();
        else
            c.group = std::to_string(numberOr(e, "pg_id", -1));
        if (auto g = groups.find(c.group); g != groups.end()) c.groupRanks = g->second;
        const bool p2p = e.value("is_p2p", false);
        c.seq = numberOr(e, p2p ? "p2p_seq_id" : "collective_seq_id", -1);
        const std::int64_t created = numberOr(e, "time_created_ns", 0);
        const std::int64_t started = numberOr(e, "time_discovered_started_ns", 0);
        const std::int64_t completed = numberOr(e, "time_discovered_completed_ns", 0);
        if (created <= 0 && started <= 0) {
            ctx.report.skip(where + ": expected time_created_ns");
            continue;
        }
        // A collective that never completed (the hang Flight Recorder exists to show) ends
        // where it began: the model has no "still running" state.
        c.enter = started > 0 ? started : created;
        c.exit = completed > 0 ? completed : c.enter;
        if (c.exit < c.enter || c.exit - c.enter > kDay) {
            ctx.report.skip(where + ": expected time_discovered_completed_ns from its start to a day after it (no collective runs longer)");
            continue;
        }
        const nlohmann::json none;
        c.bytes = std::max(tensorBytes(e.value("input_sizes", none), e.value("input_dtypes", none)),
                           tensorBytes(e.value("output_sizes", none), e.value("output_dtypes", none)));
        if (auto d = e.find("input_dtypes"); d != e.end() && d->is_array() && !d->empty() && (*d)[0].is_string()) c.dtype = (*d)[0].get<std::string>();
        const std::string state = stringOr(e, "state");
        ctx.report.count("collectives " + (state.empty() ? std::string("without state") : state));
        ctx.report.count("collectives");
        ctx.report.seen(c.enter);
        ctx.report.seen(c.exit);
        ctx.events.collectives.push_back(std::move(c));
    }
}

}  // namespace

void importFlightRecorder(const std::string& path, ImportContext& ctx) {
    // Dumps are small (a ring buffer of the last few thousand entries): read whole.
    const std::string data = readWholeFile(path, std::size_t{512} << 20);
    if (!looksLikePickle(data)) throw Error(path + ": byte 0: expected a pickle (protocol 2 or later), as PyTorch writes Flight Recorder dumps");
    ctx.tick(0.5);
    importDump(readPickle(data, path), path, ctx);
}

void importFlightRecorderJson(const std::string& path, ImportContext& ctx) {
    const std::string data = readWholeFile(path, std::size_t{512} << 20);
    importDump(parseJson(data, path, "a Flight Recorder JSON dump"), path, ctx);
}

}  // namespace faultline
