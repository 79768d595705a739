#include "json_parse.h"
#include "flight_recorder_reader.h"

#include "model/error.h"
#include "pickle_reader.h"
#include "read_whole_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace faultline {

namespace {

// The dump as a JSON document, whether it came as JSON or as a pickle.
struct JsonNode {
    const nlohmann::json* v;
    const std::string& path;

    JsonNode at(std::string_view key) const {
        if (!v || !v->is_object()) return {nullptr, path};
        auto it = v->find(key);
        return {it == v->end() ? nullptr : &*it, path};
    }
    bool present() const { return v && !v->is_null(); }
    std::string str(std::string_view what) const {
        if (v && v->is_string()) return v->get<std::string>();
        if (v && v->is_number_integer()) return std::to_string(v->get<std::int64_t>());
        throw Error(path + ": expected text for " + std::string(what));
    }
    std::int64_t integer(std::string_view what) const {
        if (v && (v->is_number_integer() || v->is_boolean())) return v->is_boolean() ? v->get<bool>() : v->get<std::int64_t>();
        throw Error(path + ": expected a number for " + std::string(what));
    }
    bool boolean() const { return v && v->is_boolean() && v->get<bool>(); }
    std::vector<JsonNode> items() const {
        std::vector<JsonNode> out;
        if (v && v->is_array())
            for (const auto& e : *v) out.push_back({&e, path});
        return out;
    }
    std::vector<std::pair<std::string, JsonNode>> members() const {
        std::vector<std::pair<std::string, JsonNode>> out;
        if (v && v->is_object())
            for (auto it = v->begin(); it != v->end(); ++it) out.emplace_back(it.key(), JsonNode{&it.value(), path});
        return out;
    }
};

// "[0, 1, 2]" as pg_config writes it, or a real list.
template <typename Node>
std::vector<std::int32_t> rankList(const Node& node) {
    std::vector<std::int32_t> out;
    if (auto items = node.items(); !items.empty()) {
        for (const auto& i : items) out.push_back(static_cast<std::int32_t>(i.integer("a rank")));
        return out;
    }
    const std::string text = node.present() ? node.str("ranks") : "";
    for (std::size_t i = 0; i < text.size();) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) { ++i; continue; }
        std::size_t end = i;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        out.push_back(std::stoi(text.substr(i, end - i)));
        i = end;
    }
    return out;
}

template <typename Node>
std::vector<std::vector<std::int64_t>> sizesOf(const Node& node) {
    std::vector<std::vector<std::int64_t>> out;
    for (const auto& tensor : node.items()) {
        out.emplace_back();
        for (const auto& d : tensor.items()) out.back().push_back(d.integer("a tensor size"));
    }
    return out;
}

template <typename Node>
std::vector<std::string> stringsOf(const Node& node) {
    std::vector<std::string> out;
    for (const auto& s : node.items()) out.push_back(s.str("a dtype"));
    return out;
}

template <typename Node>
void fill(FlightRecorderDump& dump, const Node& root) {
    if (!root.at("entries").present() && !root.at("pg_config").present())
        throw Error(dump.path + ": not a Flight Recorder dump (no \"entries\" or \"pg_config\")");
    if (root.at("version").present()) dump.version = root.at("version").str("version");
    if (root.at("nccl_version").present()) dump.ncclVersion = root.at("nccl_version").str("nccl_version");
    if (root.at("rank").present()) dump.rank = static_cast<std::int32_t>(root.at("rank").integer("rank"));
    for (const auto& [name, cfg] : root.at("pg_config").members())
        dump.groups[name] = {cfg.at("name").present() ? cfg.at("name").str("pg name") : name,
                             cfg.at("desc").present() ? cfg.at("desc").str("pg desc") : "", rankList(cfg.at("ranks"))};
    for (const auto& [id, st] : root.at("pg_status").members()) {
        FlightRecorderGroupStatus s;
        if (st.at("last_enqueued_collective").present()) s.lastEnqueued = st.at("last_enqueued_collective").integer("last_enqueued_collective");
        if (st.at("last_started_collective").present()) s.lastStarted = st.at("last_started_collective").integer("last_started_collective");
        if (st.at("last_completed_collective").present()) s.lastCompleted = st.at("last_completed_collective").integer("last_completed_collective");
        dump.groupStatus[id] = s;
    }
    for (const auto& node : root.at("entries").items()) {
        FlightRecorderEntry e;
        if (node.at("record_id").present()) e.recordId = node.at("record_id").integer("record_id");
        const auto group = node.at("process_group").items();
        if (group.size() >= 1) e.processGroup = group[0].str("process_group name");
        if (group.size() >= 2) e.processGroupDesc = group[1].str("process_group desc");
        if (node.at("pg_id").present()) e.pgId = node.at("pg_id").integer("pg_id");
        if (node.at("collective_seq_id").present()) e.collectiveSeqId = node.at("collective_seq_id").integer("collective_seq_id");
        if (node.at("p2p_seq_id").present()) e.p2pSeqId = node.at("p2p_seq_id").integer("p2p_seq_id");
        e.isP2P = node.at("is_p2p").boolean();
        if (node.at("profiling_name").present()) e.profilingName = node.at("profiling_name").str("profiling_name");
        e.inputSizes = sizesOf(node.at("input_sizes"));
        e.outputSizes = sizesOf(node.at("output_sizes"));
        e.inputDtypes = stringsOf(node.at("input_dtypes"));
        e.outputDtypes = stringsOf(node.at("output_dtypes"));
        if (node.at("state").present()) e.state = node.at("state").str("state");
        e.retired = node.at("retired").boolean();
        if (node.at("time_created_ns").present()) e.timeCreatedNs = node.at("time_created_ns").integer("time_created_ns");
        if (node.at("time_discovered_started_ns").present()) e.timeStartedNs = node.at("time_discovered_started_ns").integer("time_discovered_started_ns");
        if (node.at("time_discovered_completed_ns").present())
            e.timeCompletedNs = node.at("time_discovered_completed_ns").integer("time_discovered_completed_ns");
        if (node.at("timeout_ms").present()) e.timeoutMs = node.at("timeout_ms").integer("timeout_ms");
        dump.entries.push_back(std::move(e));
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

FlightRecorderDump readFlightRecorderDump(const std::string& path) {
    FlightRecorderDump dump;
    dump.path = path;
    const std::string data = readWholeFile(path, std::size_t{512} << 20);
    const std::size_t first = data.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) throw Error(path + ": empty file, expected a Flight Recorder dump");
    if (looksLikePickle(data)) {
        const nlohmann::json root = readPickle(data, path);
        fill(dump, JsonNode{&root, path});
    } else if (data[first] == '{') {
        const nlohmann::json root = parseJson(data, path, "a Flight Recorder dump");
        fill(dump, JsonNode{&root, path});
    } else {
        throw Error(path + ": not a Flight Recorder dump (expected a Python pickle or a JSON object)");
    }
    if (dump.rank < 0) dump.rank = rankFromName(path);
    if (dump.rank < 0) throw Error(path + ": cannot tell which rank wrote this dump (no \"rank\" field and no rank number ending the name)");
    return dump;
}

std::vector<FlightRecorderDump> readFlightRecorderDumps(const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        if (!std::filesystem::is_directory(p)) {
            files.push_back(p);
            continue;
        }
        for (const auto& entry : std::filesystem::directory_iterator(p))
            if (entry.is_regular_file() && rankFromName(entry.path().string()) >= 0) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Error("no Flight Recorder dumps found (files named <prefix><rank>)");
    std::vector<FlightRecorderDump> dumps;
    for (const std::string& f : files) dumps.push_back(readFlightRecorderDump(f));
    return dumps;
}

}  // namespace faultline
