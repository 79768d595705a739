#include "run_search.h"

#include "model/format.h"
#include "model/unplaced_hosts.h"

#include <algorithm>
#include <cctype>

namespace faultline {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

const char* searchKindName(SearchHit::Kind kind) {
    switch (kind) {
        case SearchHit::Kind::Gpu: return "GPU";
        case SearchHit::Kind::Host: return "host";
        case SearchHit::Kind::Rack: return "rack";
        case SearchHit::Kind::Switch: return "switch";
        case SearchHit::Kind::Cable: return "cable";
        case SearchHit::Kind::PciBusId: return "PCI bus id";
        case SearchHit::Kind::Rank: return "rank";
        case SearchHit::Kind::Incident: return "incident";
    }
    return "";
}

RunSearchIndex::RunSearchIndex(const Run& run, const std::vector<Incident>& incidents) {
    const Topology& t = run.topology;
    auto add = [this](SearchHit::Kind kind, std::string key, std::string label, ComponentRef part, std::optional<Nanos> time = {}) {
        m_lower.push_back(lower(key));
        m_hits.push_back({kind, std::move(label), std::move(key), part, time});
    };
    for (std::size_t r = 0; r < t.racks.size(); ++r) {
        std::int32_t first = -1, hosts = 0;
        for (std::size_t h = 0; h < t.hosts.size(); ++h)
            if (t.hosts[h].rack == static_cast<std::int32_t>(r)) {
                if (first < 0) first = static_cast<std::int32_t>(h);
                ++hosts;
            }
        if (first < 0) continue;
        add(SearchHit::Kind::Rack, t.racks[r].name, t.racks[r].name + " (rack, " + formatCounted(hosts, "host", "hosts") + ")",
            {ComponentKind::Host, first});
    }
    for (std::size_t h = 0; h < t.hosts.size(); ++h)
        add(SearchHit::Kind::Host, t.hosts[h].name, t.hosts[h].name + " (host)", {ComponentKind::Host, static_cast<std::int32_t>(h)});
    for (std::size_t s = 0; s < t.switches.size(); ++s)
        add(SearchHit::Kind::Switch, t.switches[s].name, t.switches[s].name + " (" + switchTierName(t.switches[s].tier, t.fabric) + " switch)",
            {ComponentKind::Switch, static_cast<std::int32_t>(s)});
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const std::string name = t.gpuName(static_cast<std::int32_t>(g));
        add(SearchHit::Kind::Gpu, name, name + " (GPU)", {ComponentKind::Gpu, static_cast<std::int32_t>(g)});
        if (!t.gpus[g].pciBusId.empty())
            add(SearchHit::Kind::PciBusId, t.gpus[g].pciBusId, t.gpus[g].pciBusId + " (PCI bus id of " + name + ")",
                {ComponentKind::Gpu, static_cast<std::int32_t>(g)});
    }
    for (std::size_t r = 0; r < run.rankToGpu.size(); ++r) {
        const std::int32_t g = run.rankToGpu[r];
        if (g < 0) continue;
        // An unplaced rank's GPU is named by the rank itself: "rank 12 (host unknown)".
        const bool unplaced = isUnplacedHost(t.hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)]);
        add(SearchHit::Kind::Rank, "rank " + std::to_string(r), unplaced ? t.gpuName(g) : "rank " + std::to_string(r) + " (on " + t.gpuName(g) + ")",
            {ComponentKind::Gpu, g});
    }
    for (const Incident& i : incidents)
        add(SearchHit::Kind::Incident, "incident " + std::to_string(i.id), "incident " + std::to_string(i.id) + ": " + i.headline,
            i.gpus.empty() ? ComponentRef{} : ComponentRef{ComponentKind::Gpu, i.gpus.front()}, i.begin);
    for (std::size_t l = 0; l < t.links.size(); ++l) {
        const std::string name = t.linkName(static_cast<std::int32_t>(l));
        add(SearchHit::Kind::Cable, name, name + " (cable)", {ComponentKind::Link, static_cast<std::int32_t>(l)});
    }
}

std::vector<SearchHit> RunSearchIndex::find(const std::string& query, std::size_t limit) const {
    std::string q = lower(query);
    while (!q.empty() && std::isspace(static_cast<unsigned char>(q.back()))) q.pop_back();
    while (!q.empty() && std::isspace(static_cast<unsigned char>(q.front()))) q.erase(q.begin());
    std::vector<SearchHit> out;
    if (q.empty()) return out;
    // A number alone finds that rank and incident too: "12" -> rank 12, incident 12.
    std::vector<std::size_t> prefix, inside;
    for (std::size_t i = 0; i < m_lower.size(); ++i) {
        const std::size_t at = m_lower[i].find(q);
        if (at == std::string::npos) continue;
        (at == 0 ? prefix : inside).push_back(i);
        if (prefix.size() >= limit) break;
    }
    // Exact names first, then shorter names (r0231 before r0231-h1-gpu3).
    auto order = [this, &q](std::size_t a, std::size_t b) {
        const bool ea = m_lower[a] == q, eb = m_lower[b] == q;
        if (ea != eb) return ea;
        return m_lower[a].size() < m_lower[b].size();
    };
    std::stable_sort(prefix.begin(), prefix.end(), order);
    std::stable_sort(inside.begin(), inside.end(), order);
    for (const auto* list : {&prefix, &inside})
        for (std::size_t i : *list) {
            if (out.size() >= limit) return out;
            out.push_back(m_hits[i]);
        }
    return out;
}

std::optional<SearchHit> RunSearchIndex::best(const std::string& query) const {
    const std::string q = lower(query);
    for (std::size_t i = 0; i < m_lower.size(); ++i)
        if (m_lower[i] == q) return m_hits[i];
    const std::vector<SearchHit> hits = find(query, 1);
    if (hits.empty()) return std::nullopt;
    return hits.front();
}

}  // namespace faultline
