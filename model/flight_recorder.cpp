#include "flight_recorder.h"

#include "error.h"

#include <functional>

namespace faultline {

FlightRecorderState flightRecorderState(std::string_view text) {
    if (text == "completed") return FlightRecorderState::Completed;
    if (text == "started") return FlightRecorderState::Started;
    if (text == "scheduled") return FlightRecorderState::Scheduled;
    return FlightRecorderState::Unknown;
}

const char* flightRecorderStateText(FlightRecorderState state) {
    switch (state) {
        case FlightRecorderState::Completed: return "completed";
        case FlightRecorderState::Started: return "started";
        case FlightRecorderState::Scheduled: return "scheduled";
        case FlightRecorderState::Unknown: break;
    }
    return "";
}

std::uint32_t FlightRecorderDump::internGroup(std::string_view name, std::string_view desc, std::int64_t pgId) {
    for (std::size_t i = entryGroups.size(); i-- > 0;)
        if (entryGroups[i].name == name && entryGroups[i].desc == desc && entryGroups[i].pgId == pgId) return static_cast<std::uint32_t>(i);
    if (entryGroups.size() >= kMaxFlightRecorderEntryGroups)
        throw Error(path + ": more than " + std::to_string(kMaxFlightRecorderEntryGroups) + " process groups named by its entries");
    entryGroups.push_back({std::string(name), std::string(desc), pgId});
    return static_cast<std::uint32_t>(entryGroups.size() - 1);
}

std::uint32_t FlightRecorderDump::internOp(std::string_view op) {
    for (std::size_t i = ops.size(); i-- > 0;)
        if (ops[i] == op) return static_cast<std::uint32_t>(i);
    ops.emplace_back(op);
    return static_cast<std::uint32_t>(ops.size() - 1);
}

std::uint32_t FlightRecorderDump::internTensors(FlightRecorderTensors&& t) {
    std::uint64_t h = t.sizes.size() * 0x9e3779b97f4a7c15ull;
    for (const auto& s : t.sizes) {
        h = (h ^ s.size()) * 0x100000001b3ull;
        for (std::int64_t d : s) h = (h ^ static_cast<std::uint64_t>(d)) * 0x100000001b3ull;
    }
    for (const std::string& d : t.dtypes) h = (h ^ std::hash<std::string>{}(d)) * 0x100000001b3ull;
    for (auto [it, end] = m_tensorsByHash.equal_range(h); it != end; ++it)
        if (tensors[it->second] == t) return it->second;
    tensors.push_back(std::move(t));
    const auto index = static_cast<std::uint32_t>(tensors.size() - 1);
    m_tensorsByHash.emplace(h, index);
    return index;
}

void FlightRecorderDump::add(const FlightRecorderEntryText& e) {
    FlightRecorderEntry out;
    out.collectiveSeqId = e.collectiveSeqId;
    out.timeCreatedNs = e.timeCreatedNs;
    out.group = internGroup(e.processGroup, e.processGroupDesc, e.pgId);
    out.op = internOp(e.profilingName);
    out.input = internTensors(FlightRecorderTensors(e.input));
    out.state = flightRecorderState(e.state);
    out.isP2P = e.isP2P;
    entries.push_back(out);
}

FlightRecorderGroup flightRecorderGroup(std::string name, std::string desc, std::vector<std::int32_t> ranks) {
    return {std::move(name), std::move(desc), std::make_shared<const std::vector<std::int32_t>>(std::move(ranks))};
}

}  // namespace faultline
