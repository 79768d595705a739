#include "run_collectives.h"

#include "flight_recorder_collectives.h"

#include <algorithm>
#include <map>

namespace faultline {

namespace {

// Ops and process groups, each kept once in the run's tables.
class CollectiveTables {
public:
    explicit CollectiveTables(Run& run) : m_run(run) {}
    std::int32_t op(const std::string& name) {
        auto [it, added] = m_ops.try_emplace(name, static_cast<std::int32_t>(m_run.collectiveOps.size()));
        if (added) m_run.collectiveOps.push_back(name);
        return it->second;
    }
    std::int32_t group(const std::string& name, const std::vector<std::int32_t>& ranks) {
        auto [it, added] = m_groups.try_emplace({name, ranks}, static_cast<std::int32_t>(m_run.processGroups.size()));
        if (added) m_run.processGroups.push_back({name, ranks});
        return it->second;
    }

private:
    Run& m_run;
    std::map<std::string, std::int32_t> m_ops;
    std::map<std::pair<std::string, std::vector<std::int32_t>>, std::int32_t> m_groups;
};

// The group an entry names, as the run keeps it: its name (its pg_id when it has none) and
// the ranks pg_config gives that name.
std::int32_t dumpGroup(const FlightRecorderDump& dump, const FlightRecorderEntryGroup& g, CollectiveTables& tables) {
    const std::string name = g.name.empty() ? std::to_string(g.pgId) : g.name;
    static const std::vector<std::int32_t> kNoRanks;
    const auto it = dump.groups.find(name);
    return tables.group(name, it == dump.groups.end() || !it->second.ranks ? kNoRanks : *it->second.ranks);
}

// Records with absolute (epoch) times, as they are gathered.
void addDump(const FlightRecorderDump& dump, CollectiveTables& tables, std::vector<CollectiveRecord>& out) {
    const FlightRecorderCollectives collectives(dump);
    // The dump's few groups and ops, looked up in the run's tables once each.
    std::vector<std::int32_t> groups(dump.entryGroups.size(), -1), ops(dump.ops.size(), -1);
    for (std::size_t i = 0; i < dump.entries.size(); ++i) {
        const auto c = collectives.at(i);
        const auto* collective = std::get_if<FlightRecorderCollective>(&c);
        if (!collective) continue;  // the importer reported it
        const FlightRecorderEntry& e = dump.entries[i];
        if (groups[e.group] < 0) groups[e.group] = dumpGroup(dump, dump.entryGroups[e.group], tables);
        if (ops[e.op] < 0) ops[e.op] = tables.op(collectives.opOf(e));
        out.push_back({dump.rank, groups[e.group], ops[e.op], collective->seq, collective->enter, collective->exit, collective->bytes});
    }
}

}  // namespace

CollectiveSpan collectiveSpan(const ImportedEvents& events) {
    CollectiveSpan span;
    auto see = [&span](EpochNs enter, EpochNs exit) {
        if (enter > 0 && (span.first == 0 || enter < span.first)) span.first = enter;
        span.last = std::max(span.last, exit);
    };
    for (const ImportedCollective& c : events.collectives) see(c.enter, c.exit);
    for (const FlightRecorderDump& dump : events.flightRecorderDumps) {
        const FlightRecorderCollectives collectives(dump);
        for (std::size_t i = 0; i < dump.entries.size(); ++i)
            if (const auto c = collectives.at(i); const auto* collective = std::get_if<FlightRecorderCollective>(&c))
                see(collective->enter, collective->exit);
    }
    return span;
}

void addCollectives(const ImportedEvents& events, EpochNs base, Run& run) {
    CollectiveTables tables(run);
    std::size_t total = events.collectives.size();
    for (const FlightRecorderDump& dump : events.flightRecorderDumps) total += dump.entries.size();
    std::vector<CollectiveRecord>& records = run.collectives;
    records.reserve(total);
    bool unnumbered = false;
    for (const ImportedCollective& c : events.collectives) {
        records.push_back({c.rank, tables.group(c.group, c.groupRanks), tables.op(c.op), c.seq, c.enter, c.exit, c.bytes});
        unnumbered |= c.seq < 0;
    }
    for (const FlightRecorderDump& dump : events.flightRecorderDumps) addDump(dump, tables, records);
    std::stable_sort(records.begin(), records.end(), [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.enter < b.enter; });

    // Without the file's own sequence number, a rank's n-th collective in a group is taken
    // to be every member's n-th: true when all ranks' traces cover the same steps.
    if (unnumbered) {
        std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> nextSeq;  // (rank, group) -> seq
        for (CollectiveRecord& r : records) {
            std::int64_t& seq = nextSeq[{r.rank, r.group}];
            if (r.seq < 0) r.seq = seq;
            seq = r.seq + 1;
        }
    }
    for (CollectiveRecord& r : records) {
        r.enter -= base;
        r.exit -= base;
    }
}

}  // namespace faultline
