#include "topology_tables.h"

#include "run_file_schema.h"

namespace faultline {

void writeTopologyTables(SqliteDb& db, const Topology& t) {
    {
        SqliteStatement s(db, "INSERT INTO clusters VALUES(?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.clusters.size(); ++i) {
            const Cluster& c = t.clusters[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(c.name)).bind(3, std::string_view(c.hall));
            s.bind(4, std::string_view(c.building)).bind(5, std::string_view(schema::enumText(schema::kFabricKinds, c.fabric))).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO zones VALUES(?, ?, ?)");
        for (std::size_t i = 0; i < t.zones.size(); ++i)
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(t.zones[i].name)).bind(3, std::int64_t{t.zones[i].cluster}).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO racks VALUES(?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.racks.size(); ++i) {
            const Rack& r = t.racks[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(r.name)).bind(3, std::int64_t{r.zone});
            s.bind(4, std::int64_t{r.row}).bind(5, std::int64_t{r.position}).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO hosts VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.hosts.size(); ++i) {
            const Host& h = t.hosts[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(h.name)).bind(3, std::int64_t{h.rack});
            s.bind(4, std::int64_t{h.firstGpu}).bind(5, std::int64_t{h.gpuCount});
            s.bind(6, std::int64_t{h.firstNic}).bind(7, std::int64_t{h.nicCount}).bind(8, std::int64_t{h.gpuCountAssumed}).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO gpus VALUES(?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.gpus.size(); ++i) {
            const Gpu& g = t.gpus[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::int64_t{g.host}).bind(3, std::int64_t{g.index});
            s.bind(4, std::string_view(g.pciBusId)).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO nics VALUES(?, ?, ?)");
        for (std::size_t i = 0; i < t.nics.size(); ++i)
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::int64_t{t.nics[i].host}).bind(3, std::int64_t{t.nics[i].index}).execute();
    }
    {
        SqliteStatement kind(db, "INSERT INTO fabric VALUES(?)");
        kind.bind(1, std::string_view(schema::enumText(schema::kFabricKinds, t.fabric))).execute();
        SqliteStatement s(db, "INSERT INTO switches VALUES(?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.switches.size(); ++i) {
            const Switch& w = t.switches[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(w.name));
            s.bind(3, std::string_view(schema::enumText(schema::kSwitchTiers, w.tier)));
            s.bind(4, std::int64_t{w.zone}).bind(5, std::int64_t{w.rack}).bind(6, std::int64_t{w.rail}).bind(7, std::int64_t{w.cluster}).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO links VALUES(?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.links.size(); ++i) {
            const Link& l = t.links[i];
            s.bind(1, static_cast<std::int64_t>(i));
            s.bind(2, std::string_view(schema::enumText(schema::kNodeKinds, l.lower.kind))).bind(3, std::int64_t{l.lower.index});
            s.bind(4, std::string_view(schema::enumText(schema::kNodeKinds, l.upper.kind))).bind(5, std::int64_t{l.upper.index}).execute();
        }
    }
}

Topology readTopologyTables(SqliteDb& db) {
    Topology t;
    // Files before schema 7 have no clusters: one cluster, every zone and switch in it.
    const bool hasClusters = SqliteStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'clusters'").next();
    if (hasClusters)
        for (SqliteStatement s(db, "SELECT name, hall, building, fabric FROM clusters ORDER BY id"); s.next();)
            t.clusters.push_back({s.text(0), s.text(1), s.text(2), schema::enumFromText<FabricKind>(schema::kFabricKinds, s.text(3), "fabric kind")});
    for (SqliteStatement s(db, hasClusters ? "SELECT name, cluster FROM zones ORDER BY id" : "SELECT name, 0 FROM zones ORDER BY id"); s.next();)
        t.zones.push_back({s.text(0), s.int32(1)});
    for (SqliteStatement s(db, "SELECT name, zone, row, position FROM racks ORDER BY id"); s.next();)
        t.racks.push_back({s.text(0), s.int32(1), s.int32(2), s.int32(3)});
    const bool hasAssumedCounts = SqliteStatement(db, "SELECT 1 FROM pragma_table_info('hosts') WHERE name = 'gpu_count_assumed'").next();
    for (SqliteStatement s(db, hasAssumedCounts ? "SELECT name, rack, first_gpu, gpu_count, first_nic, nic_count, gpu_count_assumed FROM hosts ORDER BY id"
                                                : "SELECT name, rack, first_gpu, gpu_count, first_nic, nic_count, 0 FROM hosts ORDER BY id");
         s.next();)
        t.hosts.push_back({s.text(0), s.int32(1), s.int32(2), s.int32(3), s.int32(4), s.int32(5), s.int32(6) != 0});
    for (SqliteStatement s(db, "SELECT host, idx, pci_bus_id FROM gpus ORDER BY id"); s.next();)
        t.gpus.push_back({s.int32(0), s.int32(1), s.text(2)});
    for (SqliteStatement s(db, "SELECT host, idx FROM nics ORDER BY id"); s.next();) t.nics.push_back({s.int32(0), s.int32(1)});
    // Files before schema 6 have no fabric kind and no rails: RoCE fabrics, as they were drawn.
    const bool hasFabric = SqliteStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'fabric'").next();
    if (hasFabric)
        for (SqliteStatement s(db, "SELECT kind FROM fabric"); s.next();)
            t.fabric = schema::enumFromText<FabricKind>(schema::kFabricKinds, s.text(0), "fabric kind");
    const char* switches = hasClusters ? "SELECT name, tier, zone, rack, rail, cluster FROM switches ORDER BY id"
                           : hasFabric ? "SELECT name, tier, zone, rack, rail, 0 FROM switches ORDER BY id"
                                       : "SELECT name, tier, zone, rack, -1, 0 FROM switches ORDER BY id";
    for (SqliteStatement s(db, switches); s.next();)
        t.switches.push_back({s.text(0), schema::enumFromText<SwitchTier>(schema::kSwitchTiers, s.text(1), "switch tier"), s.int32(2), s.int32(3), s.int32(4), s.int32(5)});
    for (SqliteStatement s(db, "SELECT lower_kind, lower_index, upper_kind, upper_index FROM links ORDER BY id"); s.next();)
        t.links.push_back({{schema::enumFromText<NodeKind>(schema::kNodeKinds, s.text(0), "link end"), s.int32(1)},
                           {schema::enumFromText<NodeKind>(schema::kNodeKinds, s.text(2), "link end"), s.int32(3)}});
    t.validate();
    return t;
}

}  // namespace faultline
