#include "importers/pytorch/flight_recorder_collectives.h"

#include "importers/pytorch/collective_names.h"

#include <algorithm>

namespace faultline {

namespace {

// Bytes of all tensors of one side: sum over tensors of (product of dims) x element size;
// 0 (unknown) when a dimension is negative or the product is larger than any tensor.
std::int64_t tensorBytes(const FlightRecorderTensors& t) {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < t.sizes.size(); ++i) {
        std::int64_t elems = 1;
        for (std::int64_t dim : t.sizes[i])
            if (dim < 0 || __builtin_mul_overflow(elems, dim, &elems)) return 0;
        std::int64_t bytes = 0;
        if (__builtin_mul_overflow(elems, dtypeBytes(i < t.dtypes.size() ? t.dtypes[i] : std::string()), &bytes) ||
            __builtin_add_overflow(total, bytes, &total))
            return 0;
    }
    return total;
}

}  // namespace

FlightRecorderCollectives::FlightRecorderCollectives(const FlightRecorderDump& dump) : m_dump(dump) {
    m_ops.reserve(dump.ops.size());
    for (std::string_view name : dump.ops) {
        if (name.substr(0, 5) == "nccl:") name.remove_prefix(5);
        m_ops.emplace_back(name.substr(0, name.find(' ')));  // "send 0->3": the peers are in the group
    }
    m_tensorBytes.reserve(dump.tensors.size());
    for (const FlightRecorderTensors& t : dump.tensors) m_tensorBytes.push_back(tensorBytes(t));
}

std::variant<FlightRecorderCollective, const char*> FlightRecorderCollectives::at(std::size_t index) const {
    const FlightRecorderEntry& e = m_dump.entries[index];
    const FlightRecorderTiming t = index < m_dump.timings.size() ? m_dump.timings[index] : FlightRecorderTiming{};
    if (opOf(e).empty()) return "expected a profiling_name such as \"nccl:all_reduce\"";
    if (e.timeCreatedNs <= 0 && t.startedNs <= 0) return "expected time_created_ns";
    FlightRecorderCollective c;
    // A collective that never completed (the hang Flight Recorder exists to show) ends where
    // it began: the model has no "still running" state.
    c.enter = t.startedNs > 0 ? t.startedNs : e.timeCreatedNs;
    c.exit = t.completedNs > 0 ? t.completedNs : c.enter;
    if (c.exit < c.enter || c.exit - c.enter > kDay)
        return "expected time_discovered_completed_ns from its start to a day after it (no collective runs longer)";
    c.bytes = std::max(m_tensorBytes[e.input], index < m_dump.timings.size() ? m_tensorBytes[e.output] : 0);
    c.seq = e.collectiveSeqId;
    return c;
}

}  // namespace faultline
