#include "shard_file.h"

#include "model/error.h"
#include "model/partial_file.h"
#include "model/run_file_schema.h"
#include "model/sqlite_db.h"
#include "model/topology_tables.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace faultline {

namespace {

constexpr const char* kShardTables = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE files(ord INTEGER PRIMARY KEY, report TEXT NOT NULL, world_size INTEGER NOT NULL,
                   topology_source TEXT);
CREATE TABLE failures(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, time_ns INTEGER NOT NULL,
                      since_boot INTEGER NOT NULL, cause TEXT NOT NULL, xid INTEGER NOT NULL,
                      host TEXT, pci_bus_id TEXT, local_gpu INTEGER NOT NULL, rank INTEGER NOT NULL,
                      hosts TEXT, ranks BLOB, detail TEXT);
CREATE TABLE groups(id INTEGER PRIMARY KEY, name TEXT NOT NULL, ranks BLOB);
CREATE TABLE words(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE collectives(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                         grp INTEGER NOT NULL, op INTEGER NOT NULL, dtype INTEGER NOT NULL,
                         enter_ns INTEGER NOT NULL, exit_ns INTEGER NOT NULL, bytes INTEGER NOT NULL,
                         seq INTEGER NOT NULL);
CREATE TABLE steps(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                   step INTEGER NOT NULL, end_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, begin_ns INTEGER NOT NULL,
                         end_ns INTEGER NOT NULL, step INTEGER NOT NULL, kind TEXT NOT NULL);
CREATE TABLE jobs(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, job TEXT NOT NULL);
CREATE TABLE placements(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                        host TEXT NOT NULL, local_gpu INTEGER NOT NULL);
)sql";

nlohmann::json reportToJson(const FileReport& r) {
    return {{"path", r.path}, {"format", r.format}, {"counts", r.counts}, {"first", r.first}, {"last", r.last},
            {"ranks", r.ranks}, {"skipped", r.skippedLines}, {"warnings", r.warnings}};
}

FileReport reportFromJson(const nlohmann::json& j) {
    FileReport r;
    r.path = j.at("path").get<std::string>();
    r.format = j.at("format").get<std::string>();
    r.counts = j.at("counts").get<std::map<std::string, std::int64_t>>();
    r.first = j.at("first").get<EpochNs>();
    r.last = j.at("last").get<EpochNs>();
    r.ranks = j.at("ranks").get<std::set<std::int32_t>>();
    r.skippedLines = j.at("skipped").get<std::int64_t>();
    r.warnings = j.at("warnings").get<std::vector<std::string>>();
    return r;
}

nlohmann::json jobToJson(const ImportedJob& job) {
    return {{"id", job.id}, {"name", job.name}, {"state", job.state}, {"nodes", job.nodes}, {"start", job.start}, {"end", job.end}};
}

ImportedJob jobFromJson(const nlohmann::json& j) {
    ImportedJob job;
    job.id = j.at("id").get<std::string>();
    job.name = j.at("name").get<std::string>();
    job.state = j.at("state").get<std::string>();
    job.nodes = j.at("nodes").get<std::vector<std::string>>();
    job.start = j.at("start").get<EpochNs>();
    job.end = j.at("end").get<EpochNs>();
    return job;
}

std::string dumpJson(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// Interns strings (op and dtype names) and process groups, which repeat on every collective.
class Interner {
public:
    explicit Interner(SqliteDb& db) : m_word(db, "INSERT INTO words VALUES(?, ?)"), m_group(db, "INSERT INTO groups VALUES(?, ?, ?)") {}
    std::int64_t word(const std::string& text) {
        auto [it, added] = m_words.try_emplace(text, static_cast<std::int64_t>(m_words.size()));
        if (added) m_word.bind(1, it->second).bind(2, std::string_view(text)).execute();
        return it->second;
    }
    std::int64_t group(const std::string& name, const std::vector<std::int32_t>& ranks) {
        auto [it, added] = m_groups.try_emplace({name, ranks}, static_cast<std::int64_t>(m_groups.size()));
        if (added) m_group.bind(1, it->second).bind(2, std::string_view(name)).bindBlob(3, ranks).execute();
        return it->second;
    }

private:
    SqliteStatement m_word, m_group;
    std::map<std::string, std::int64_t> m_words;
    std::map<std::pair<std::string, std::vector<std::int32_t>>, std::int64_t> m_groups;
};

void writeFile(SqliteDb& db, const ShardedFile& f, Interner& intern) {
    const auto file = static_cast<std::int64_t>(f.order);
    const ImportedEvents& e = f.events;
    SqliteStatement(db, "INSERT INTO files VALUES(?, ?, ?, ?)")
        .bind(1, file)
        .bind(2, std::string_view(dumpJson(reportToJson(f.report))))
        .bind(3, std::int64_t{e.worldSize})
        .bind(4, std::string_view(e.topology ? e.topologySource : std::string()))
        .execute();
    {
        SqliteStatement s(db, "INSERT INTO failures(file, time_ns, since_boot, cause, xid, host, pci_bus_id, local_gpu, rank, hosts, ranks, detail) "
                              "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (const ImportedFailure& x : e.failures)
            s.bind(1, file).bind(2, x.time).bind(3, std::int64_t{x.sinceBoot}).bind(4, std::string_view(rootCauseKey(x.cause)))
                .bind(5, std::int64_t{x.xid}).bind(6, std::string_view(x.where.host)).bind(7, std::string_view(x.where.pciBusId))
                .bind(8, std::int64_t{x.where.localGpu}).bind(9, std::int64_t{x.where.rank})
                .bind(10, std::string_view(dumpJson(x.hosts))).bindBlob(11, x.ranks).bind(12, std::string_view(x.detail)).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO collectives(file, rank, grp, op, dtype, enter_ns, exit_ns, bytes, seq) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (const ImportedCollective& c : e.collectives)
            s.bind(1, file).bind(2, std::int64_t{c.rank}).bind(3, intern.group(c.group, c.groupRanks)).bind(4, intern.word(c.op))
                .bind(5, intern.word(c.dtype)).bind(6, c.enter).bind(7, c.exit).bind(8, c.bytes).bind(9, c.seq).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO steps(file, rank, step, end_ns, duration_ns) VALUES(?, ?, ?, ?, ?)");
        for (const ImportedStep& x : e.steps)
            s.bind(1, file).bind(2, std::int64_t{x.rank}).bind(3, x.step).bind(4, x.end).bind(5, x.duration).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO checkpoints(file, begin_ns, end_ns, step, kind) VALUES(?, ?, ?, ?, ?)");
        for (const ImportedCheckpoint& x : e.checkpoints)
            s.bind(1, file).bind(2, x.begin).bind(3, x.end).bind(4, x.step)
                .bind(5, std::string_view(schema::enumText(schema::kCheckpointKinds, x.kind))).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO jobs(file, job) VALUES(?, ?)");
        for (const ImportedJob& x : e.jobs) s.bind(1, file).bind(2, std::string_view(dumpJson(jobToJson(x)))).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO placements(file, rank, host, local_gpu) VALUES(?, ?, ?, ?)");
        for (const RankPlacement& x : e.placements)
            s.bind(1, file).bind(2, std::int64_t{x.rank}).bind(3, std::string_view(x.host)).bind(4, std::int64_t{x.localGpu}).execute();
    }
}

void setMeta(SqliteDb& db, const char* key, std::string_view value) {
    SqliteStatement(db, "INSERT INTO meta VALUES(?, ?)").bind(1, std::string_view(key)).bind(2, value).execute();
}

}  // namespace

void writeShardFile(const ImportShard& shard, const std::string& path) {
    const ShardedFile* topologyFile = nullptr;
    for (const ShardedFile& f : shard.files)
        if (f.events.topology) topologyFile = &f;
    writeThroughPartial(path, [&](const std::string& partial) {
        SqliteDb db(partial, SqliteDb::Mode::Create);
        db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;");
        db.exec("PRAGMA application_id=" + std::to_string(kShardFileApplicationId) + "; PRAGMA user_version=" + std::to_string(kShardFileVersion) + ";");
        db.exec("BEGIN");
        db.exec(kShardTables);
        db.exec(schema::kTopologyTables);
        setMeta(db, "shard", std::to_string(shard.index));
        setMeta(db, "shards", std::to_string(shard.count));
        setMeta(db, "inputs", std::to_string(shard.inputs));
        setMeta(db, "run_name", shard.runName);
        if (topologyFile) {
            setMeta(db, "topology_file", std::to_string(topologyFile->order));
            writeTopologyTables(db, *topologyFile->events.topology);
        }
        Interner intern(db);
        for (const ShardedFile& f : shard.files) writeFile(db, f, intern);
        db.exec("COMMIT");
    });
}

ImportShard readShardFile(const std::string& path) {
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw Error("cannot read " + path + ": no such file or not readable");
        char header[16] = {};
        in.read(header, sizeof header);
        if (in.gcount() < 16 || std::string_view(header, 15) != "SQLite format 3")
            throw Error(path + " is not a Faultline import shard (expected one written by faultline-cli import --shard)");
    }
    SqliteDb db(path, SqliteDb::Mode::ReadOnly);
    if (db.pragmaInt("application_id") != kShardFileApplicationId)
        throw Error(path + " is not a Faultline import shard (expected one written by faultline-cli import --shard)");
    if (db.pragmaInt("user_version") > kShardFileVersion) throw Error(path + " was written by a newer Faultline");
    try {
        ImportShard shard;
        std::map<std::string, std::string> meta;
        for (SqliteStatement s(db, "SELECT key, value FROM meta"); s.next();) meta[s.text(0)] = s.text(1);
        shard.index = std::stoi(meta.at("shard"));
        shard.count = std::stoi(meta.at("shards"));
        shard.inputs = std::stoull(meta.at("inputs"));
        shard.runName = meta.at("run_name");
        std::map<std::int64_t, std::size_t> byOrder;  // file order -> index in shard.files
        for (SqliteStatement s(db, "SELECT ord, report, world_size, topology_source FROM files ORDER BY ord"); s.next();) {
            ShardedFile f;
            f.order = static_cast<std::size_t>(s.int64(0));
            f.report = reportFromJson(nlohmann::json::parse(s.text(1)));
            f.events.worldSize = s.int32(2);
            f.events.topologySource = s.text(3);
            byOrder[s.int64(0)] = shard.files.size();
            shard.files.push_back(std::move(f));
        }
        auto eventsOf = [&](std::int64_t file) -> ImportedEvents& { return shard.files.at(byOrder.at(file)).events; };
        if (auto t = meta.find("topology_file"); t != meta.end()) eventsOf(std::stoll(t->second)).topology = readTopologyTables(db);

        for (SqliteStatement s(db, "SELECT file, time_ns, since_boot, cause, xid, host, pci_bus_id, local_gpu, rank, hosts, ranks, detail "
                                   "FROM failures ORDER BY id");
             s.next();) {
            ImportedFailure x;
            x.time = s.int64(1);
            x.sinceBoot = s.int64(2) != 0;
            x.cause = rootCauseFromKey(s.text(3)).value_or(RootCause::Unknown);
            x.xid = s.int32(4);
            x.where = {s.text(5), s.text(6), s.int32(7), s.int32(8)};
            x.hosts = nlohmann::json::parse(s.text(9)).get<std::vector<std::string>>();
            x.ranks = s.int32Blob(10);
            x.detail = s.text(11);
            eventsOf(s.int64(0)).failures.push_back(std::move(x));
        }
        std::vector<std::string> words;
        for (SqliteStatement s(db, "SELECT text FROM words ORDER BY id"); s.next();) words.push_back(s.text(0));
        std::vector<std::pair<std::string, std::vector<std::int32_t>>> groups;
        for (SqliteStatement s(db, "SELECT name, ranks FROM groups ORDER BY id"); s.next();) groups.emplace_back(s.text(0), s.int32Blob(1));
        for (SqliteStatement s(db, "SELECT file, rank, grp, op, dtype, enter_ns, exit_ns, bytes, seq FROM collectives ORDER BY id"); s.next();) {
            ImportedCollective c;
            c.rank = s.int32(1);
            const auto& g = groups.at(static_cast<std::size_t>(s.int64(2)));
            c.group = g.first;
            c.groupRanks = g.second;
            c.op = words.at(static_cast<std::size_t>(s.int64(3)));
            c.dtype = words.at(static_cast<std::size_t>(s.int64(4)));
            c.enter = s.int64(5);
            c.exit = s.int64(6);
            c.bytes = s.int64(7);
            c.seq = s.int64(8);
            eventsOf(s.int64(0)).collectives.push_back(std::move(c));
        }
        for (SqliteStatement s(db, "SELECT file, rank, step, end_ns, duration_ns FROM steps ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).steps.push_back({s.int32(1), s.int64(2), s.int64(3), s.int64(4)});
        for (SqliteStatement s(db, "SELECT file, begin_ns, end_ns, step, kind FROM checkpoints ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).checkpoints.push_back(
                {s.int64(1), s.int64(2), s.int64(3), schema::enumFromText<CheckpointKind>(schema::kCheckpointKinds, s.text(4), "checkpoint kind")});
        for (SqliteStatement s(db, "SELECT file, job FROM jobs ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).jobs.push_back(jobFromJson(nlohmann::json::parse(s.text(1))));
        for (SqliteStatement s(db, "SELECT file, rank, host, local_gpu FROM placements ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).placements.push_back({s.int32(1), s.text(2), s.int32(3)});
        return shard;
    } catch (const std::exception& e) {
        throw Error(path + " is a damaged import shard: " + e.what());
    }
}

}  // namespace faultline
