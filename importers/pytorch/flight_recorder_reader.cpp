#include "importers/pytorch/flight_recorder_reader.h"

#include "importers/pytorch/flight_recorder_document.h"
#include "importers/pytorch/flight_recorder_group_lists.h"
#include "importers/pytorch/flight_recorder_pickle_scanner.h"
#include "importers/text/parallel_files.h"

#include "model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>

namespace faultline {

namespace {

// One field of the dump, with the file's name for messages.
struct Field {
    FlightRecorderValue v;
    const std::string& path;
    std::string_view where;                    // "pg_status \"3\" " or ""
    std::size_t entry = std::string::npos;     // entries[entry], spelt out only in a message

    [[noreturn]] void expected(std::string_view what, std::string_view key) const {
        const std::string at = entry == std::string::npos ? std::string(where) : "entries[" + std::to_string(entry) + "]: ";
        throw Error(path + ": " + at + std::string(key) + ": expected " + std::string(what) + ", found " + v.describe());
    }
    std::string text(std::string_view key) const {
        if (v.isText()) return std::string(v.text());
        if (v.isInt()) return std::to_string(v.integer());
        expected("text", key);
    }
    std::int64_t integer(std::string_view key) const {
        if (v.isInt() || v.isBool()) return v.integer();
        expected("an integer", key);
    }
};

Field at(const FlightRecorderValue& node, std::string_view key, const std::string& path, std::string_view where = {}) {
    return {node[key], path, where};
}

// "[0, 1, 2]" as pg_config writes it, or a real list.
std::vector<std::int32_t> rankList(const Field& f, const std::string& group) {
    std::vector<std::int32_t> out;
    auto add = [&](std::int64_t r) {
        if (r < 0 || r > INT32_MAX)
            throw Error(f.path + ": pg_config \"" + group + "\" lists rank " + std::to_string(r) + ", not a rank");
        out.push_back(static_cast<std::int32_t>(r));
    };
    if (f.v.isList()) {
        for (std::size_t i = 0; i < f.v.size(); ++i) add(Field{f.v.item(i), f.path, {}}.integer("pg_config \"" + group + "\" ranks[" + std::to_string(i) + "]"));
        return out;
    }
    if (!f.v.present()) return out;
    if (!f.v.isText()) f.expected("a list of ranks", "pg_config \"" + group + "\" ranks");
    return flightRecorderRanksFromText(f.v.text(), f.path, group);
}

// One side's tensors: `side` is "input" or "output", naming the fields read.
FlightRecorderTensors tensorsOf(const FlightRecorderValue& sizeList, const FlightRecorderValue& dtypeList, std::string_view side,
                                const std::string& path, std::size_t where) {
    const std::string sizesKey = std::string(side) + "_sizes";
    const std::string dtypesKey = std::string(side) + "_dtypes";
    FlightRecorderTensors t;
    const Field sizes{sizeList, path, {}, where};
    if (sizes.v.present() && !sizes.v.isList()) sizes.expected("a list of tensor sizes", sizesKey);
    for (std::size_t i = 0; i < sizes.v.size(); ++i) {
        const FlightRecorderValue tensor = sizes.v.item(i);
        if (!tensor.isList()) Field{tensor, path, {}, where}.expected("a list of dimensions", sizesKey + "[" + std::to_string(i) + "]");
        auto& dims = t.sizes.emplace_back();
        for (std::size_t k = 0; k < tensor.size(); ++k) {
            const FlightRecorderValue d = tensor.item(k);
            dims.push_back(d.isInt() ? d.integer() : Field{d, path, {}, where}.integer(sizesKey + "[" + std::to_string(i) + "]"));
        }
    }
    const Field dtypes{dtypeList, path, {}, where};
    if (dtypes.v.present() && !dtypes.v.isList()) dtypes.expected("a list of dtypes", dtypesKey);
    for (std::size_t i = 0; i < dtypes.v.size(); ++i) t.dtypes.push_back(Field{dtypes.v.item(i), path, {}, where}.text(dtypesKey));
    return t;
}

// Most entries of a dump repeat a few dozen tensor shapes: each entry's shape is hashed and
// compared where it lies, and only a new one is copied out. 0 when a value is not the plain
// list of integer lists and list of texts expected (the slow path then says what is wrong).
class TensorShapes {
public:
    std::uint32_t find(const FlightRecorderEntryValues& e, const FlightRecorderDump& dump) const {
        const std::uint64_t h = hash(e);
        if (h == 0) return kNone;
        auto it = m_byHash.find(h);
        if (it == m_byHash.end()) return kNone;
        for (std::uint32_t i : it->second)
            if (same(dump.tensors[i], e)) return i;
        return kNone;
    }
    void keep(const FlightRecorderEntryValues& e, std::uint32_t index) {
        if (const std::uint64_t h = hash(e)) m_byHash[h].push_back(index);
    }
    static constexpr std::uint32_t kNone = UINT32_MAX;

private:
    static std::uint64_t hash(const FlightRecorderEntryValues& e) {
        std::uint64_t h = 0xcbf29ce484222325ull;
        auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001b3ull; };
        if (!e.inputSizes.isList() || !e.inputDtypes.isList()) return 0;
        mix(e.inputSizes.size());
        for (std::size_t i = 0; i < e.inputSizes.size(); ++i) {
            const FlightRecorderValue t = e.inputSizes.item(i);
            if (!t.isList()) return 0;
            mix(t.size());
            for (std::size_t k = 0; k < t.size(); ++k) {
                const FlightRecorderValue d = t.item(k);
                if (!d.isInt()) return 0;
                mix(static_cast<std::uint64_t>(d.integer()));
            }
        }
        mix(e.inputDtypes.size());
        for (std::size_t i = 0; i < e.inputDtypes.size(); ++i) {
            const FlightRecorderValue d = e.inputDtypes.item(i);
            if (!d.isText()) return 0;
            mix(std::hash<std::string_view>{}(d.text()));
        }
        return h == 0 ? 1 : h;
    }
    static bool same(const FlightRecorderTensors& t, const FlightRecorderEntryValues& e) {
        if (t.sizes.size() != e.inputSizes.size() || t.dtypes.size() != e.inputDtypes.size()) return false;
        for (std::size_t i = 0; i < t.sizes.size(); ++i) {
            const FlightRecorderValue v = e.inputSizes.item(i);
            if (v.size() != t.sizes[i].size()) return false;
            for (std::size_t k = 0; k < v.size(); ++k)
                if (v.item(k).integer() != t.sizes[i][k]) return false;
        }
        for (std::size_t i = 0; i < t.dtypes.size(); ++i)
            if (e.inputDtypes.item(i).text() != t.dtypes[i]) return false;
        return true;
    }
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_byHash;
};

void fill(FlightRecorderDump& dump, const FlightRecorderValue& root, FlightRecorderGroupLists& lists, bool timings) {
    const std::string& path = dump.path;
    if (!root.isDict()) throw Error(path + ": expected a Flight Recorder dump (a dict with \"entries\" and \"pg_config\"), found " + root.describe());
    if (!root["entries"].present() && !root["pg_config"].present())
        throw Error(path + ": not a Flight Recorder dump (no \"entries\" or \"pg_config\")");
    if (root["version"].present()) dump.version = at(root, "version", path).text("version");
    if (root["nccl_version"].present()) dump.ncclVersion = at(root, "nccl_version", path).text("nccl_version");
    if (root["rank"].present()) {
        const std::int64_t r = at(root, "rank", path).integer("rank");
        if (r < 0 || r > INT32_MAX) throw Error(path + ": rank " + std::to_string(r) + " is not a rank");
        dump.rank = static_cast<std::int32_t>(r);
    }
    const FlightRecorderValue config = root["pg_config"];
    if (config.present() && !config.isDict()) Field{config, path, {}}.expected("a dict of process groups", "pg_config");
    for (std::size_t i = 0; i < config.size(); ++i) {
        const std::string key = config.keyText(i);
        const FlightRecorderValue cfg = config.value(i);
        if (!cfg.isDict()) Field{cfg, path, {}}.expected("a dict (name, desc, ranks)", "pg_config \"" + key + "\"");
        FlightRecorderGroup g;
        g.name = cfg["name"].present() ? at(cfg, "name", path).text("pg_config \"" + key + "\" name") : key;
        g.desc = cfg["desc"].present() ? at(cfg, "desc", path).text("pg_config \"" + key + "\" desc") : "";
        const Field ranks = at(cfg, "ranks", path);
        if (ranks.v.isText()) {
            g.ranks = lists.find(ranks.v.text());
            if (!g.ranks) g.ranks = lists.keep(ranks.v.text(), rankList(ranks, key));
        } else {
            g.ranks = std::make_shared<const std::vector<std::int32_t>>(rankList(ranks, key));
        }
        dump.groups[key] = std::move(g);
    }
    const FlightRecorderValue status = root["pg_status"];
    if (status.present() && !status.isDict()) Field{status, path, {}}.expected("a dict of group counters", "pg_status");
    for (std::size_t i = 0; i < status.size(); ++i) {
        const std::string id = status.keyText(i);
        const FlightRecorderValue st = status.value(i);
        const std::string where = "pg_status \"" + id + "\" ";
        FlightRecorderGroupStatus s;
        if (st["last_enqueued_collective"].present()) s.lastEnqueued = at(st, "last_enqueued_collective", path, where).integer("last_enqueued_collective");
        if (st["last_started_collective"].present()) s.lastStarted = at(st, "last_started_collective", path, where).integer("last_started_collective");
        if (st["last_completed_collective"].present())
            s.lastCompleted = at(st, "last_completed_collective", path, where).integer("last_completed_collective");
        dump.groupStatus[id] = s;
    }
    const FlightRecorderValue entries = root["entries"];
    if (entries.present() && !entries.isList()) Field{entries, path, {}}.expected("a list of entries", "entries");
    dump.entries.reserve(entries.size());
    if (timings) dump.timings.reserve(entries.size());
    TensorShapes shapes;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const FlightRecorderValue node = entries.item(i);
        if (!node.isDict()) Field{node, path, {}, i}.expected("an entry dict", "entry");
        const FlightRecorderEntryValues v = flightRecorderEntryValues(node);
        auto integer = [&](const FlightRecorderValue& x, std::string_view key, std::int64_t fallback) {
            return x.isInt() ? x.integer() : x.present() ? Field{x, path, {}, i}.integer(key) : fallback;
        };
        FlightRecorderEntry e;
        if (v.processGroup.present() && !v.processGroup.isList()) Field{v.processGroup, path, {}, i}.expected("a (name, desc) pair", "process_group");
        // Text is read in place; a number (a group named 0) is spelt out.
        std::string spelt[2];
        std::string_view groupName, groupDesc;
        for (std::size_t k = 0; k < 2 && k < v.processGroup.size(); ++k) {
            const FlightRecorderValue part = v.processGroup.item(k);
            std::string_view& into = k == 0 ? groupName : groupDesc;
            if (part.isText()) into = part.text();
            else into = spelt[k] = Field{part, path, {}, i}.text(k == 0 ? "process_group name" : "process_group desc");
        }
        e.group = dump.internGroup(groupName, groupDesc, integer(v.pgId, "pg_id", -1));
        e.isP2P = v.isP2P.boolean();
        e.collectiveSeqId = e.isP2P ? integer(v.p2pSeqId, "p2p_seq_id", 0) : integer(v.collectiveSeqId, "collective_seq_id", 0);
        if (v.profilingName.present() && !v.profilingName.isText()) Field{v.profilingName, path, {}, i}.expected("text", "profiling_name");
        e.op = dump.internOp(v.profilingName.isText() ? v.profilingName.text() : "");
        e.input = shapes.find(v, dump);
        if (e.input == TensorShapes::kNone) {
            e.input = dump.internTensors(tensorsOf(v.inputSizes, v.inputDtypes, "input", path, i));
            shapes.keep(v, e.input);
        }
        if (v.state.present() && !v.state.isText()) Field{v.state, path, {}, i}.expected("text", "state");
        if (v.state.isText()) e.state = flightRecorderState(v.state.text());
        e.timeCreatedNs = integer(v.timeCreated, "time_created_ns", 0);
        if (timings) {
            e.output = dump.internTensors(tensorsOf(v.outputSizes, v.outputDtypes, "output", path, i));
            dump.timings.push_back({integer(v.timeStarted, "time_discovered_started_ns", 0), integer(v.timeCompleted, "time_discovered_completed_ns", 0)});
        }
        dump.entries.push_back(e);
    }
}

// PyTorch names each rank's dump <prefix><rank>: the trailing digits.
std::int32_t rankFromName(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    std::size_t end = name.size();
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;  // allow a suffix like ".json"
    std::size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(name[begin - 1]))) --begin;
    if (begin == end || end - begin > 9) return -1;
    return std::stoi(name.substr(begin, end - begin));
}

}  // namespace

FlightRecorderDump readFlightRecorderDump(const std::string& path, const FlightRecorderReading& how) {
    const FlightRecorderFileBuffer file(path);
    return readFlightRecorderDump(path, file.data(), how);
}

FlightRecorderDump readFlightRecorderDump(const std::string& path, std::string_view data, const FlightRecorderReading& how) {
    FlightRecorderGroupLists own;
    FlightRecorderGroupLists& shared = how.lists ? *how.lists : own;
    FlightRecorderDump dump;
    dump.path = path;
    if (how.wholeDocument || !looksLikePickle(data) || !scanFlightRecorderPickle(data, dump, shared, how.timings)) {
        dump = FlightRecorderDump();
        dump.path = path;
        const FlightRecorderDocument doc(path, std::string(data));
        fill(dump, doc.root(), shared, how.timings);
    }
    if (dump.rank < 0) dump.rank = rankFromName(path);
    if (dump.rank < 0) throw Error(path + ": cannot tell which rank wrote this dump (no \"rank\" field and no rank number ending the name)");
    return dump;
}

std::string flightRecorderDumpToJson(const FlightRecorderDump& dump) {
    using nlohmann::json;
    json config = json::object();
    for (const auto& [key, g] : dump.groups) config[key] = {{"name", g.name}, {"desc", g.desc}, {"ranks", g.ranks ? *g.ranks : std::vector<std::int32_t>()}};
    json status = json::object();
    for (const auto& [id, s] : dump.groupStatus)
        status[id] = {{"last_enqueued_collective", s.lastEnqueued}, {"last_started_collective", s.lastStarted}, {"last_completed_collective", s.lastCompleted}};
    auto time = [](std::int64_t ns) { return ns == 0 ? json(nullptr) : json(ns); };
    json entries = json::array();
    for (const FlightRecorderEntry& e : dump.entries) {
        const FlightRecorderEntryGroup& g = dump.groupOf(e);
        const FlightRecorderTensors& in = dump.inputOf(e);
        json entry = {{"process_group", {g.name, g.desc}}, {"pg_id", g.pgId}, {e.isP2P ? "p2p_seq_id" : "collective_seq_id", e.collectiveSeqId},
                      {"is_p2p", e.isP2P}, {"profiling_name", dump.opOf(e)}, {"input_sizes", in.sizes}, {"input_dtypes", in.dtypes},
                      {"time_created_ns", e.timeCreatedNs}};
        if (!dump.timings.empty()) {
            const FlightRecorderTiming& t = dump.timings[static_cast<std::size_t>(&e - dump.entries.data())];
            const FlightRecorderTensors& out = dump.tensors[e.output];
            entry["output_sizes"] = out.sizes;
            entry["output_dtypes"] = out.dtypes;
            entry["time_discovered_started_ns"] = time(t.startedNs);
            entry["time_discovered_completed_ns"] = time(t.completedNs);
        }
        if (e.state != FlightRecorderState::Unknown) entry["state"] = flightRecorderStateText(e.state);
        entries.push_back(std::move(entry));
    }
    json root = {{"rank", dump.rank}, {"pg_config", config}, {"pg_status", status}, {"entries", entries}};
    if (!dump.version.empty()) root["version"] = dump.version;
    if (!dump.ncclVersion.empty()) root["nccl_version"] = dump.ncclVersion;
    return root.dump();
}

std::vector<FlightRecorderDump> readFlightRecorderDumps(const std::vector<std::string>& paths, int workers) {
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!std::filesystem::is_directory(p, ec)) {
            files.push_back(p);  // the reader says what it is if not a dump
            continue;
        }
        // Links that loop or lead nowhere are not dumps; anything else that is not a regular
        // file (a FIFO would block the reading forever) is refused by the reader, named.
        // The listing's own kind of each entry is trusted: only a link (or a file system that
        // does not say) costs a stat; the reader's open and fstat look at the file itself.
        for (auto it = std::filesystem::directory_iterator(p, ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
            if (rankFromName(it->path().string()) < 0) continue;
            std::error_code entryError;
            const bool plain = !it->is_symlink(entryError) && it->is_regular_file(entryError);
            if (!plain) {
                const auto status = it->status(entryError);
                if (entryError || std::filesystem::is_directory(status) || !std::filesystem::exists(status)) continue;
            }
            files.push_back(it->path().string());
        }
        if (ec) throw Error(p + ": cannot list the folder: " + ec.message());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Error("no Flight Recorder dumps found (files named <prefix><rank>)");
    std::vector<FlightRecorderDump> dumps(files.size());
    FlightRecorderGroupLists lists;
    forEachFileInParallel(files.size(), workers, [&](std::size_t i) { dumps[i] = readFlightRecorderDump(files[i], FlightRecorderReading{.lists = &lists}); });
    return dumps;
}

}  // namespace faultline
