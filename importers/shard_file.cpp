#include "importers/shard_file.h"

#include "importers/pytorch/flight_recorder_group_lists.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/text/input_file.h"

#include "model/error.h"
#include "model/partial_file.h"
#include "model/run_file_schema.h"
#include "model/sqlite_db.h"
#include "model/topology_tables.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <fstream>
#include <map>

namespace faultline {

namespace {

constexpr const char* kShardTables = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE files(ord INTEGER PRIMARY KEY, report TEXT NOT NULL, shape TEXT NOT NULL, topology_source TEXT);
CREATE TABLE failures(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, failure TEXT NOT NULL);
CREATE TABLE groups(id INTEGER PRIMARY KEY, name TEXT NOT NULL, ranks BLOB);
CREATE TABLE words(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE collectives(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                         grp INTEGER NOT NULL, op INTEGER NOT NULL, dtype INTEGER NOT NULL,
                         enter_ns INTEGER NOT NULL, exit_ns INTEGER NOT NULL, bytes INTEGER NOT NULL,
                         seq INTEGER NOT NULL);
CREATE TABLE steps(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                   step INTEGER NOT NULL, end_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, begin_ns INTEGER NOT NULL,
                         end_ns INTEGER NOT NULL, step INTEGER NOT NULL, kind TEXT NOT NULL, bytes INTEGER NOT NULL);
CREATE TABLE jobs(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, job TEXT NOT NULL);
CREATE TABLE placements(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, rank INTEGER NOT NULL,
                        host TEXT NOT NULL, local_gpu INTEGER NOT NULL);
CREATE TABLE flight_recorder_dumps(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, path TEXT NOT NULL, dump TEXT NOT NULL);
)sql";

nlohmann::json reportToJson(const FileReport& r) {
    return {{"path", r.path}, {"format", r.format}, {"counts", r.counts}, {"first", r.first}, {"last", r.last},
            {"ranks", r.ranks}, {"skipped", r.skippedLines}, {"warnings", r.warnings},
            {"lines_read", r.linesRead}, {"lines_understood", r.linesUnderstood}, {"understood_by_kind", r.understoodByKind},
            {"unrecognised", r.unrecognised}, {"notes", r.notes}, {"written", r.written}};
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
    // Shards written before line counts were kept lack these.
    r.linesRead = j.value("lines_read", std::int64_t{0});
    r.linesUnderstood = j.value("lines_understood", std::int64_t{0});
    r.understoodByKind = j.value("understood_by_kind", std::map<std::string, std::int64_t>{});
    r.unrecognised = j.value("unrecognised", std::vector<std::string>{});
    r.notes = j.value("notes", std::vector<std::string>{});
    r.written = j.value("written", EpochNs{0});
    return r;
}

// Jobs, failures and what a file says of the job's shape are few: kept as JSON, every field.
nlohmann::json jobToJson(const ImportedJob& job) {
    return {{"id", job.id},         {"parent", job.parentId}, {"name", job.name},         {"state", job.state},
            {"state_text", job.stateText}, {"exit_code", job.exitCode}, {"reason", job.reason}, {"restarts", job.restarts},
            {"gpus", job.gpus},     {"nodes", job.nodes},     {"submit", job.submit},     {"start", job.start},
            {"end", job.end},       {"from_log", job.fromLog}, {"first_log_line", job.firstLogLine},
            {"depends_on", job.dependsOn}};
}

ImportedJob jobFromJson(const nlohmann::json& j) {
    ImportedJob job;
    job.id = j.at("id").get<std::string>();
    job.parentId = j.at("parent").get<std::string>();
    job.name = j.at("name").get<std::string>();
    job.state = j.at("state").get<std::string>();
    job.stateText = j.at("state_text").get<std::string>();
    job.exitCode = j.at("exit_code").get<std::string>();
    job.reason = j.at("reason").get<std::string>();
    job.restarts = j.at("restarts").get<std::int32_t>();
    job.gpus = j.at("gpus").get<std::int32_t>();
    job.nodes = j.at("nodes").get<std::vector<std::string>>();
    job.submit = j.at("submit").get<EpochNs>();
    job.start = j.at("start").get<EpochNs>();
    job.end = j.at("end").get<EpochNs>();
    job.fromLog = j.at("from_log").get<bool>();
    job.firstLogLine = j.at("first_log_line").get<EpochNs>();
    job.dependsOn = j.value("depends_on", std::vector<std::string>());
    return job;
}

nlohmann::json failureToJson(const ImportedFailure& f) {
    return {{"time", f.time},     {"since_boot", f.sinceBoot}, {"cause", rootCauseKey(f.cause)}, {"xid", f.xid},
            {"host", f.where.host}, {"pci_bus_id", f.where.pciBusId}, {"local_gpu", f.where.localGpu}, {"rank", f.where.rank},
            {"hosts", f.hosts},   {"ranks", f.ranks},          {"detail", f.detail},             {"job", f.job},
            {"evidence_only", f.evidenceOnly}, {"source", f.source}, {"suspect_ranks", f.suspectRanks}, {"world", f.world},
            {"time_inferred", f.timeInferred}, {"year_assumed", f.yearAssumed}};
}

ImportedFailure failureFromJson(const nlohmann::json& j) {
    ImportedFailure f;
    f.time = j.at("time").get<EpochNs>();
    f.sinceBoot = j.at("since_boot").get<bool>();
    f.cause = rootCauseFromKey(j.at("cause").get<std::string>()).value_or(RootCause::Unknown);
    f.xid = j.at("xid").get<std::int32_t>();
    f.where = {j.at("host").get<std::string>(), j.at("pci_bus_id").get<std::string>(), j.at("local_gpu").get<std::int32_t>(),
               j.at("rank").get<std::int32_t>()};
    f.hosts = j.at("hosts").get<std::vector<std::string>>();
    f.ranks = j.at("ranks").get<std::vector<std::int32_t>>();
    f.suspectRanks = j.value("suspect_ranks", std::vector<std::int32_t>{});
    f.world = j.value("world", std::int32_t{0});
    f.timeInferred = j.value("time_inferred", false);
    f.yearAssumed = j.value("year_assumed", false);
    f.detail = j.at("detail").get<std::string>();
    f.job = j.at("job").get<std::string>();
    f.evidenceOnly = j.at("evidence_only").get<bool>();
    f.source = j.at("source").get<std::string>();
    return f;
}

nlohmann::json inJobRestartsToJson(const std::vector<InJobRestart>& restarts) {
    nlohmann::json out = nlohmann::json::array();
    for (const InJobRestart& r : restarts) out.push_back({{"time", r.time}, {"detail", r.detail}, {"source", r.source}});
    return out;
}

nlohmann::json shapeToJson(const ImportedEvents& e) {
    return {{"world_size", e.worldSize}, {"tensor_parallel", e.tensorParallel}, {"pipeline_parallel", e.pipelineParallel},
            {"data_parallel", e.dataParallel}, {"gpus_per_node", e.gpusPerNode}, {"rank_hosts", e.rankHosts},
            {"gpu_bus_ids", e.gpuBusIds}, {"in_job_restarts", inJobRestartsToJson(e.inJobRestarts)}};
}

void shapeFromJson(const nlohmann::json& j, ImportedEvents& e) {
    e.worldSize = j.at("world_size").get<std::int32_t>();
    e.tensorParallel = j.at("tensor_parallel").get<std::int32_t>();
    e.pipelineParallel = j.at("pipeline_parallel").get<std::int32_t>();
    e.dataParallel = j.at("data_parallel").get<std::int32_t>();
    e.gpusPerNode = j.at("gpus_per_node").get<std::int32_t>();
    e.rankHosts = j.at("rank_hosts").get<std::vector<std::string>>();
    e.gpuBusIds = j.at("gpu_bus_ids").get<std::vector<std::pair<std::string, std::string>>>();
    for (const nlohmann::json& r : j.value("in_job_restarts", nlohmann::json::array()))
        e.inJobRestarts.push_back({r.at("time").get<EpochNs>(), r.at("detail").get<std::string>(), r.at("source").get<std::string>()});
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
        .bind(3, std::string_view(dumpJson(shapeToJson(e))))
        .bind(4, std::string_view(e.topology ? e.topologySource : std::string()))
        .execute();
    {
        SqliteStatement s(db, "INSERT INTO failures(file, failure) VALUES(?, ?)");
        for (const ImportedFailure& x : e.failures) s.bind(1, file).bind(2, std::string_view(dumpJson(failureToJson(x)))).execute();
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
        SqliteStatement s(db, "INSERT INTO checkpoints(file, begin_ns, end_ns, step, kind, bytes) VALUES(?, ?, ?, ?, ?, ?)");
        for (const ImportedCheckpoint& x : e.checkpoints)
            s.bind(1, file).bind(2, x.begin).bind(3, x.end).bind(4, x.step)
                .bind(5, std::string_view(schema::enumText(schema::kCheckpointKinds, x.kind))).bind(6, x.bytes).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO jobs(file, job) VALUES(?, ?)");
        for (const ImportedJob& x : e.jobs) s.bind(1, file).bind(2, std::string_view(dumpJson(jobToJson(x)))).execute();
    }
    {
        // Whole, so that the merge analyses the hang as an import of all the dumps would.
        SqliteStatement s(db, "INSERT INTO flight_recorder_dumps(file, path, dump) VALUES(?, ?, ?)");
        for (const FlightRecorderDump& d : e.flightRecorderDumps)
            s.bind(1, file).bind(2, std::string_view(d.path)).bind(3, std::string_view(flightRecorderDumpToJson(d))).execute();
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
        // A FIFO would block the read below forever.
        if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            throw Error(path + ": " + notRegularFileText(st.st_mode));
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
    const std::int64_t version = db.pragmaInt("user_version");
    if (version > kShardFileVersion) throw Error(path + " was written by a newer Faultline");
    try {
        ImportShard shard;
        std::map<std::string, std::string> meta;
        for (SqliteStatement s(db, "SELECT key, value FROM meta"); s.next();) meta[s.text(0)] = s.text(1);
        shard.index = std::stoi(meta.at("shard"));
        shard.count = std::stoi(meta.at("shards"));
        shard.inputs = std::stoull(meta.at("inputs"));
        shard.runName = meta.at("run_name");
        std::map<std::int64_t, std::size_t> byOrder;  // file order -> index in shard.files
        for (SqliteStatement s(db, "SELECT ord, report, shape, topology_source FROM files ORDER BY ord"); s.next();) {
            ShardedFile f;
            f.order = static_cast<std::size_t>(s.int64(0));
            f.report = reportFromJson(nlohmann::json::parse(s.text(1)));
            shapeFromJson(nlohmann::json::parse(s.text(2)), f.events);
            f.events.topologySource = s.text(3);
            byOrder[s.int64(0)] = shard.files.size();
            shard.files.push_back(std::move(f));
        }
        auto eventsOf = [&](std::int64_t file) -> ImportedEvents& { return shard.files.at(byOrder.at(file)).events; };
        if (auto t = meta.find("topology_file"); t != meta.end()) eventsOf(std::stoll(t->second)).topology = readTopologyTables(db);

        for (SqliteStatement s(db, "SELECT file, failure FROM failures ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).failures.push_back(failureFromJson(nlohmann::json::parse(s.text(1))));
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
        for (SqliteStatement s(db, "SELECT file, begin_ns, end_ns, step, kind, bytes FROM checkpoints ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).checkpoints.push_back({s.int64(1), s.int64(2), s.int64(3),
                                                        schema::enumFromText<CheckpointKind>(schema::kCheckpointKinds, s.text(4), "checkpoint kind"),
                                                        s.int64(5)});
        for (SqliteStatement s(db, "SELECT file, job FROM jobs ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).jobs.push_back(jobFromJson(nlohmann::json::parse(s.text(1))));
        for (SqliteStatement s(db, "SELECT file, rank, host, local_gpu FROM placements ORDER BY id"); s.next();)
            eventsOf(s.int64(0)).placements.push_back({s.int32(1), s.text(2), s.int32(3)});
        if (version >= 2) {
            FlightRecorderGroupLists lists;
            for (SqliteStatement s(db, "SELECT file, path, dump FROM flight_recorder_dumps ORDER BY id"); s.next();)
                eventsOf(s.int64(0)).flightRecorderDumps.push_back(readFlightRecorderDump(s.text(1), s.text(2), FlightRecorderReading{.lists = &lists, .timings = true}));
        }
        return shard;
    } catch (const std::exception& e) {
        throw Error(path + " is a damaged import shard: " + e.what());
    }
}

}  // namespace faultline
