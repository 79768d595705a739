#include "collective_chunks.h"
#include "error.h"
#include "run_file.h"
#include "run_file_schema.h"
#include "telemetry_tables.h"
#include "run_validity.h"
#include "topology_tables.h"
#include "sqlite_db.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <fstream>

namespace faultline {

namespace {

RootCause causeFromText(const std::string& text) {
    if (auto cause = rootCauseFromKey(text)) return *cause;
    throw Error("unknown root cause \"" + text + "\"");
}

// A run file is an SQLite database; anything else is named for what it is not.
void checkIsSqlite(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(path + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw Error(path + " is a folder, not a Faultline run file");
    // A FIFO or device would block or never end the read below.
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + " is not a regular file (a FIFO, socket or device), not a Faultline run file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + path + ": " + std::strerror(errno));
    char header[16] = {};
    in.read(header, sizeof header);
    if (in.gcount() == 0) throw Error(path + " is empty, not a Faultline run file");
    if (in.gcount() < 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
        throw Error(path + " is not a Faultline run file (expected an SQLite database)");
}

std::int64_t checkHeader(SqliteDb& db) {
    const std::string& path = db.path();
    if (db.pragmaInt("application_id") != kRunFileApplicationId)
        throw Error(path + " is not a Faultline run file (an SQLite database of another application)");
    const std::int64_t version = db.pragmaInt("user_version");
    if (version > kRunFileSchemaVersion)
        throw Error(path + " was written by a newer Faultline (run file schema " + std::to_string(version) +
                    "; this build reads schema " + std::to_string(kRunFileSchemaVersion) + " and older)");
    if (version < 1) throw Error(path + " is not a Faultline run file (no schema version)");
    // Every table read now is checked now; the telemetry's pages are read (and SQLite checks
    // them) only when a view asks for them, so opening a run never reads them all.
    std::vector<std::string> tables;
    for (SqliteStatement s(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('telemetry_summary', 'telemetry_raw')"); s.next();)
        tables.push_back(s.text(0));
    for (std::string table : tables) {
        for (std::size_t q = table.find('"'); q != std::string::npos; q = table.find('"', q + 2)) table.insert(q, 1, '"');
        SqliteStatement check(db, "PRAGMA quick_check(\"" + table + "\")");
        if (check.next() && check.text(0) != "ok") throw Error("integrity check failed: " + check.text(0));
    }
    return version;
}

RunInfo readMeta(SqliteDb& db, JobShape& shape, std::vector<std::int32_t>& untracedGpus) {
    RunInfo info;
    SqliteStatement s(db, "SELECT key, value FROM meta");
    while (s.next()) {
        const std::string key = s.text(0);
        if (key == "name") info.name = s.text(1);
        else if (key == "source") info.source = s.text(1);
        else if (key == "start_epoch_ns") info.startEpochNs = s.int64(1);
        else if (key == "duration_ns") info.duration = s.int64(1);
        else if (key == "world_size") shape.worldSize = s.int32(1);
        else if (key == "gpus_per_node") shape.gpusPerNode = s.int32(1);
        else if (key == "tensor_parallel") shape.tensorParallel = s.int32(1);
        else if (key == "pipeline_parallel") shape.pipelineParallel = s.int32(1);
        else if (key == "data_parallel") shape.dataParallel = s.int32(1);
        else if (key == "untraced_gpus") untracedGpus = s.int32Blob(1);
    }
    return info;
}

// Version 1 had no jobs: its downtimes name no job, and it reads as a run without jobs.
void readJobs(SqliteDb& db, Run& run, std::int64_t version) {
    if (version < 2) return;
    for (SqliteStatement s(db, "SELECT job_id, name, parent, restarts, hosts, gpus, submit_ns, start_ns, end_ns, state, exit_code, reason, in_run FROM jobs ORDER BY id");
         s.next();) {
        Job j;
        j.id = s.text(0);
        j.name = s.text(1);
        j.parent = s.int32(2);
        j.restarts = s.int32(3);
        j.hosts = s.int32Blob(4);
        j.gpus = s.int32(5);
        j.submit = s.optionalInt64(6);
        j.start = s.optionalInt64(7);
        j.end = s.optionalInt64(8);
        j.state = s.text(9);
        j.exitCode = s.text(10);
        j.reason = s.text(11);
        j.inRun = s.int64(12) != 0;
        run.jobs.push_back(std::move(j));
    }
}

// Version 4 keeps them in chunks (collective_chunks.h), older versions a row each.
void readCollectives(SqliteDb& db, Run& run, std::int64_t version) {
    if (version < 4) {
        for (SqliteStatement s(db, "SELECT rank, grp, op, seq, enter_ns, exit_ns, bytes FROM collectives ORDER BY id"); s.next();)
            run.collectives.push_back({s.int32(0), s.int32(1), s.int32(2), s.int64(3), s.int64(4), s.int64(5), s.int64(6)});
        return;
    }
    // Every count is checked against its chunk before anything is sized from it: a record
    // takes at least one byte for each of its seven numbers, so a count of a billion in a
    // chunk of a few kilobytes is refused here, not allocated (it was "std::bad_alloc").
    std::uint64_t total = 0;
    for (SqliteStatement s(db, "SELECT id, count, length(records) FROM collective_chunks ORDER BY id"); s.next();) {
        const std::int64_t count = s.int64(1);
        const std::int64_t bytes = s.int64(2);
        if (count < 0 || count > bytes / kMinCollectiveRecordBytes)
            throw Error("collective_chunks row " + std::to_string(s.int64(0)) + ": a count of " + std::to_string(count) + " records does not fit the chunk (" +
                        std::to_string(bytes) + " bytes hold at most " + std::to_string(bytes / kMinCollectiveRecordBytes) + " records of " +
                        std::to_string(kMinCollectiveRecordBytes) + " bytes or more)");
        total += static_cast<std::uint64_t>(count);
    }
    run.collectives.reserve(static_cast<std::size_t>(total));
    for (SqliteStatement s(db, "SELECT id, count, records FROM collective_chunks ORDER BY id"); s.next();) {
        try {
            const std::int64_t count = s.int64(1);
            if (count < 0 || static_cast<std::uint64_t>(count) > s.blobView(2).size()) throw Error("a count of " + std::to_string(count) + " records does not fit the chunk");
            decodeCollectiveChunk(s.blobView(2), static_cast<std::size_t>(count), run.collectives);
        } catch (const Error& e) {
            throw Error("collective_chunks row " + std::to_string(s.int64(0)) + ": " + e.what());
        }
    }
}

// Version 4 added the hang analysis; older runs have none.
void readHang(SqliteDb& db, Run& run, std::int64_t version) {
    if (version < 4) return;
    SqliteStatement head(db, "SELECT dumps, ranks_without_dump, culprits FROM hangs ORDER BY id LIMIT 1");
    if (!head.next()) return;
    HangReport& hang = run.hang.emplace();
    hang.dumps = head.int32(0);
    hang.ranksWithoutDump = head.int32Blob(1);
    hang.culprits = head.int32Blob(2);
    for (SqliteStatement s(db, "SELECT process_group, process_group_desc, group_ranks, seq, op, size, dtype, enqueued_ns, missing, stuck, mismatches "
                               "FROM hang_findings ORDER BY id");
         s.next();) {
        HangFinding& f = hang.findings.emplace_back();
        f.processGroup = s.text(0);
        f.processGroupDesc = s.text(1);
        f.groupRanks = s.int32Blob(2);
        f.seq = s.int64(3);
        f.op = s.text(4);
        f.size = s.text(5);
        f.dtype = s.text(6);
        f.enqueuedNs = s.int64(7);
        f.missing = s.int32Blob(8);
        f.stuck = s.int32Blob(9);
        const std::string mismatches = s.text(10);
        for (std::size_t begin = 0; begin < mismatches.size();) {
            const std::size_t end = std::min(mismatches.find('\n', begin), mismatches.size());
            f.mismatches.push_back(mismatches.substr(begin, end - begin));
            begin = end + 1;
        }
    }
    for (SqliteStatement s(db, "SELECT finding, culprits, waiting FROM hang_origins ORDER BY id"); s.next();) {
        const std::int64_t finding = s.int64(0);
        if (finding < 0 || finding >= static_cast<std::int64_t>(hang.findings.size()))
            throw Error("hang_origins row " + std::to_string(hang.origins.size()) + ": finding " + std::to_string(finding) + " does not exist");
        hang.origins.push_back({static_cast<std::size_t>(finding), s.int32Blob(1), s.int32Blob(2)});
    }
}

void readEvents(SqliteDb& db, Run& run, std::int64_t version) {
    const char* failures = version < 3   ? "SELECT time_ns, cause, component_kind, component_index, xid, gpus, detail, NULL, NULL, NULL FROM failures ORDER BY id"
                           : version < 7 ? "SELECT time_ns, cause, component_kind, component_index, xid, gpus, detail, ranks, suspect_ranks, NULL FROM failures ORDER BY id"
                                         : "SELECT time_ns, cause, component_kind, component_index, xid, gpus, detail, ranks, suspect_ranks, jobs FROM failures ORDER BY id";
    for (SqliteStatement s(db, failures); s.next();)
        run.failures.push_back({s.int64(0), causeFromText(s.text(1)),
                                {schema::enumFromText<ComponentKind>(schema::kComponentKinds, s.text(2), "component kind"), s.int32(3)},
                                s.int32(4), s.int32Blob(5), s.text(6), s.int32Blob(7), s.int32Blob(8), s.int32Blob(9)});
    const char* downtimes = version < 2 ? "SELECT begin_ns, detected_ns, restarted_ns, end_ns, lost_work_ns, planned, cause, failure, -1 FROM downtimes ORDER BY id"
                                        : "SELECT begin_ns, detected_ns, restarted_ns, end_ns, lost_work_ns, planned, cause, failure, job FROM downtimes ORDER BY id";
    for (SqliteStatement s(db, downtimes); s.next();)
        run.downtimes.push_back({s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.int64(4), s.int64(5) != 0,
                                 causeFromText(s.text(6)), s.int32(7), s.int32(8)});
    readJobs(db, run, version);
    for (SqliteStatement s(db, "SELECT kind, begin_ns, end_ns, step, bytes FROM checkpoints ORDER BY id"); s.next();)
        run.checkpoints.push_back({s.int64(1), s.int64(2), s.int64(3), s.int64(4),
                                   schema::enumFromText<CheckpointKind>(schema::kCheckpointKinds, s.text(0), "checkpoint kind")});
    {
        SqliteStatement count(db, "SELECT count(*) FROM steps");
        if (count.next()) run.steps.reserve(static_cast<std::size_t>(count.int64(0)));
    }
    for (SqliteStatement s(db, "SELECT time_ns, step, duration_ns FROM steps ORDER BY id"); s.next();)
        run.steps.push_back({s.int64(0), s.int64(1), s.int64(2)});
    for (SqliteStatement s(db, "SELECT rank, step, time_ns, duration_ns FROM rank_steps ORDER BY id"); s.next();)
        run.rankSteps.push_back({s.int32(0), s.int64(1), s.int64(2), s.int64(3)});
    for (SqliteStatement s(db, "SELECT gpu, begin_ns, end_ns, slowdown, cause FROM stragglers ORDER BY id"); s.next();)
        run.stragglers.push_back({s.int32(0), s.int64(1), s.int64(2), s.real(3), s.text(4)});
    for (SqliteStatement s(db, "SELECT name FROM collective_ops ORDER BY id"); s.next();) run.collectiveOps.push_back(s.text(0));
    for (SqliteStatement s(db, "SELECT name, ranks FROM process_groups ORDER BY id"); s.next();)
        run.processGroups.push_back({s.text(0), s.int32Blob(1)});
    readCollectives(db, run, version);
    for (SqliteStatement s(db, "SELECT gpu FROM rank_map ORDER BY rank"); s.next();) run.rankToGpu.push_back(s.int32(0));
    readHang(db, run, version);
}

// Messages that already say what the file is stand; anything else means corruption.
[[noreturn]] void rethrowNamingFile(const std::string& path, const Error& e) {
    std::string message = e.what();
    if (message.rfind(path + " ", 0) == 0) throw e;
    if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
    throw Error(path + " is corrupt: " + message);
}

}  // namespace

std::optional<StoredFigures> readStoredFigures(const std::string& path) {
    checkIsSqlite(path);
    SqliteDb db(path, SqliteDb::Mode::ReadOnly);
    try {
        const std::int64_t version = db.pragmaInt("user_version");
        if (db.pragmaInt("application_id") != kRunFileApplicationId || version < 1 || version > kRunFileSchemaVersion) {
            (void)checkHeader(db);  // says which
        }
        {
            SqliteStatement table(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'run_figures'");
            if (!table.next()) return std::nullopt;
        }
        for (const char* table : {"meta", "run_figures"}) {
            SqliteStatement check(db, std::string("PRAGMA quick_check(") + table + ")");
            if (check.next() && check.text(0) != "ok") throw Error("integrity check failed: " + check.text(0));
        }
        StoredFigures figures;
        for (SqliteStatement s(db, "SELECT name, value FROM run_figures"); s.next();) figures[s.text(0)] = s.text(1);
        return figures;
    } catch (const Error& e) {
        rethrowNamingFile(path, e);
    }
}

Run readRunFile(const std::string& path) {
    checkIsSqlite(path);
    // Kept open by the run's telemetry, which reads its series from it when first asked.
    const auto file = std::make_shared<SqliteDb>(path, SqliteDb::Mode::ReadOnly);
    SqliteDb& db = *file;
    try {
        const std::int64_t version = checkHeader(db);
        Run run;
        db.exec("BEGIN");  // one consistent snapshot, even if another process writes notes
        run.info = readMeta(db, run.jobShape, run.untracedGpus);
        run.topology = readTopologyTables(db);
        readEvents(db, run, version);
        run.telemetry = openTelemetryTables(file, version, {0, run.topology.gpus.size(), run.info.startEpochNs});
        db.exec("COMMIT");
        if (const auto violation = findRunViolation(run)) throw Error(violation->text());
        return run;
    } catch (const Error& e) {
        rethrowNamingFile(path, e);
    }
}

}  // namespace faultline
