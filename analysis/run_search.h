#pragma once
// Finding anything in a run by what a person types: GPUs, hosts, racks, switches, cables,
// PCI bus ids, ranks and incidents, by prefix first and then anywhere in the name,
// case-insensitive. The GUI's search box and its completion list read it.
#include "analysis/incidents.h"
#include "model/run.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct SearchHit {
    enum class Kind { Gpu, Host, Rack, Switch, Cable, PciBusId, Rank, Incident };
    Kind kind = Kind::Gpu;
    std::string label;      // what the completion list shows: "r0231 (rack, 2 hosts)"
    std::string key;        // the name matched: "r0231"
    ComponentRef part;      // what to select (a rack: its first host); kind None for an incident
    std::optional<Nanos> time;  // an incident's first symptom: where the replay goes
};

class RunSearchIndex {
public:
    RunSearchIndex() = default;
    RunSearchIndex(const Run& run, const std::vector<Incident>& incidents);

    // Names starting with `query` first, then names containing it; at most `limit`.
    std::vector<SearchHit> find(const std::string& query, std::size_t limit = 50) const;
    // The one hit `query` names exactly (case-insensitive), else the first of find().
    std::optional<SearchHit> best(const std::string& query) const;
    std::size_t size() const { return m_hits.size(); }

private:
    std::vector<SearchHit> m_hits;
    std::vector<std::string> m_lower;  // each hit's key, lower case, for matching
};

const char* searchKindName(SearchHit::Kind kind);

}  // namespace faultline
