#include "run_file.h"

#include "collective_chunks.h"
#include "error.h"
#include "partial_file.h"
#include "pulled_sources.h"
#include "run_file_schema.h"
#include "run_validity.h"
#include "telemetry_tables.h"
#include "topology_tables.h"
#include "sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <future>
#include <thread>


namespace faultline {

namespace {

void writeMeta(SqliteDb& db, const RunInfo& info, const JobShape& jobShape, const std::vector<std::int32_t>& untracedGpus,
               const std::vector<PulledSource>& pulls) {
    SqliteStatement s(db, "INSERT INTO meta(key, value) VALUES(?, ?)");
    s.bind(1, std::string_view("name")).bind(2, std::string_view(info.name)).execute();
    s.bind(1, std::string_view("source")).bind(2, std::string_view(info.source)).execute();
    s.bind(1, std::string_view("start_epoch_ns")).bind(2, info.startEpochNs).execute();
    s.bind(1, std::string_view("duration_ns")).bind(2, info.duration).execute();
    // The job's shape, where known (meta keys: older readers pass over them).
    const std::pair<std::string_view, std::int32_t> shape[] = {{"world_size", jobShape.worldSize},
                                                               {"gpus_per_node", jobShape.gpusPerNode},
                                                               {"tensor_parallel", jobShape.tensorParallel},
                                                               {"pipeline_parallel", jobShape.pipelineParallel},
                                                               {"data_parallel", jobShape.dataParallel}};
    for (const auto& [key, n] : shape)
        if (n > 0) s.bind(1, key).bind(2, std::int64_t{n}).execute();
    if (!untracedGpus.empty()) s.bind(1, std::string_view("untraced_gpus")).bindBlob(2, untracedGpus).execute();
    if (!pulls.empty()) s.bind(1, std::string_view("pulls")).bind(2, std::string_view(pulledSourcesToJson(pulls))).execute();
}

// `keptRankSteps`: rows of rank_steps already in the file (updateRunFile), not written again.
void writeEvents(SqliteDb& db, const Run& run, std::size_t keptRankSteps) {
    {
        SqliteStatement s(db, "INSERT INTO failures VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.failures.size(); ++i) {
            const Failure& f = run.failures[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, f.time).bind(3, rootCauseKey(f.cause));
            s.bind(4, std::string_view(schema::enumText(schema::kComponentKinds, f.component.kind))).bind(5, std::int64_t{f.component.index});
            s.bind(6, std::int64_t{f.xid}).bindBlob(7, f.gpus).bind(8, std::string_view(f.detail));
            s.bindBlob(9, f.ranks).bindBlob(10, f.suspectRanks).bindBlob(11, f.jobs).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO downtimes VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
            const Downtime& d = run.downtimes[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, d.begin).bind(3, d.detected).bind(4, d.restarted);
            s.bind(5, d.end).bind(6, d.lostWork).bind(7, std::int64_t{d.planned}).bind(8, rootCauseKey(d.cause));
            s.bind(9, std::int64_t{d.failure}).bind(10, std::int64_t{d.job}).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO jobs VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.jobs.size(); ++i) {
            const Job& j = run.jobs[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(j.id)).bind(3, std::string_view(j.name));
            s.bind(4, std::int64_t{j.parent}).bind(5, std::int64_t{j.restarts}).bindBlob(6, j.hosts).bind(7, std::int64_t{j.gpus});
            s.bindOptional(8, j.submit).bindOptional(9, j.start).bindOptional(10, j.end);
            s.bind(11, std::string_view(j.state)).bind(12, std::string_view(j.exitCode)).bind(13, std::string_view(j.reason));
            s.bind(14, std::int64_t{j.inRun}).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO checkpoints VALUES(?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.checkpoints.size(); ++i) {
            const Checkpoint& c = run.checkpoints[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(schema::enumText(schema::kCheckpointKinds, c.kind)));
            s.bind(3, c.begin).bind(4, c.end).bind(5, c.step).bind(6, c.bytes).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO steps VALUES(?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.steps.size(); ++i) {
            const Step& st = run.steps[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, st.time).bind(3, st.step).bind(4, st.duration).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO rank_steps VALUES(?, ?, ?, ?, ?)");
        for (std::size_t i = keptRankSteps; i < run.rankSteps.size(); ++i) {
            const RankStep& r = run.rankSteps[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::int64_t{r.rank}).bind(3, r.step).bind(4, r.time).bind(5, r.duration).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO stragglers VALUES(?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.stragglers.size(); ++i) {
            const StragglerEpisode& e = run.stragglers[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::int64_t{e.gpu}).bind(3, e.begin).bind(4, e.end);
            s.bind(5, e.slowdown).bind(6, std::string_view(e.cause)).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO collective_ops VALUES(?, ?)");
        for (std::size_t i = 0; i < run.collectiveOps.size(); ++i)
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(run.collectiveOps[i])).execute();
    }
    {
        SqliteStatement s(db, "INSERT INTO process_groups VALUES(?, ?, ?)");
        for (std::size_t i = 0; i < run.processGroups.size(); ++i) {
            const ProcessGroup& g = run.processGroups[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(g.name)).bindBlob(3, g.ranks).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO collective_chunks VALUES(?, ?, ?)");
        const std::span<const CollectiveRecord> all(run.collectives);
        const std::size_t chunks = (all.size() + kCollectivesPerChunk - 1) / kCollectivesPerChunk;
        auto chunk = [&](std::size_t id) { return all.subspan(id * kCollectivesPerChunk, std::min(kCollectivesPerChunk, all.size() - id * kCollectivesPerChunk)); };
        auto encode = [&](std::size_t id) { return encodeCollectiveChunk(chunk(id)); };
        // The chunks after this one are encoded on other cores while it is written: for tens
        // of millions of collectives, encoding on one thread took longer than writing. A few
        // encoders keep up with the writer; more would only hold more chunks in memory.
        const std::size_t ahead = std::clamp(std::thread::hardware_concurrency(), 2u, 4u);
        std::deque<std::future<std::string>> next;
        for (std::size_t id = 0, queued = 0; id < chunks; ++id) {
            for (; queued < chunks && queued < id + ahead; ++queued) next.push_back(std::async(std::launch::async, encode, queued));
            std::string blob = next.front().get();
            next.pop_front();
            s.bind(1, static_cast<std::int64_t>(id)).bind(2, static_cast<std::int64_t>(chunk(id).size())).bindBytes(3, blob).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO rank_map VALUES(?, ?)");
        for (std::size_t r = 0; r < run.rankToGpu.size(); ++r)
            s.bind(1, static_cast<std::int64_t>(r)).bind(2, std::int64_t{run.rankToGpu[r]}).execute();
    }
}

void writeHang(SqliteDb& db, const HangReport& hang) {
    SqliteStatement(db, "INSERT INTO hangs VALUES(0, ?, ?, ?)").bind(1, std::int64_t{hang.dumps}).bindBlob(2, hang.ranksWithoutDump).bindBlob(3, hang.culprits).execute();
    SqliteStatement findings(db, "INSERT INTO hang_findings VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < hang.findings.size(); ++i) {
        const HangFinding& f = hang.findings[i];
        std::string mismatches;
        for (const std::string& m : f.mismatches) mismatches += (mismatches.empty() ? "" : "\n") + m;
        findings.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(f.processGroup)).bind(3, std::string_view(f.processGroupDesc));
        findings.bindBlob(4, f.groupRanks).bind(5, f.seq).bind(6, std::string_view(f.op)).bind(7, std::string_view(f.size));
        findings.bind(8, std::string_view(f.dtype)).bind(9, f.enqueuedNs).bindBlob(10, f.missing).bindBlob(11, f.stuck);
        findings.bind(12, std::string_view(mismatches)).execute();
    }
    SqliteStatement origins(db, "INSERT INTO hang_origins VALUES(?, ?, ?, ?)");
    for (std::size_t i = 0; i < hang.origins.size(); ++i) {
        const HangOrigin& o = hang.origins[i];
        origins.bind(1, static_cast<std::int64_t>(i)).bind(2, static_cast<std::int64_t>(o.finding)).bindBlob(3, o.culprits).bindBlob(4, o.waiting).execute();
    }
}

void checkWritable(const Run& run, const std::string& path) {
    // A run every reader would refuse as corrupt is not written at all.
    if (const auto violation = findRunViolation(run))
        throw Error("cannot write " + path + ": the run breaks a rule every reader checks (" + violation->text() + ")");
}

// Every table but rank_steps' first `keptRankSteps` rows, into tables just created.
void writeRows(SqliteDb& db, const Run& run, const StoredFigures& figures, const std::vector<PulledSource>& pulls, std::size_t keptRankSteps) {
    writeMeta(db, run.info, run.jobShape, run.untracedGpus, pulls);
    writeTopologyTables(db, run.topology);
    writeEvents(db, run, keptRankSteps);
    if (run.hang) writeHang(db, *run.hang);
    writeTelemetryTables(db, run.telemetry);
    db.exec(schema::kFigureTables);
    SqliteStatement figure(db, "INSERT INTO run_figures(name, value) VALUES(?, ?)");
    for (const auto& [name, value] : figures) figure.bind(1, std::string_view(name)).bind(2, std::string_view(value)).execute();
    db.exec(schema::kIndexes);
}

}  // namespace

void writeRunFile(const Run& run, const std::string& path, const FiguresOf& figuresOf, const std::vector<PulledSource>& pulls) {
    checkWritable(run, path);
    const StoredFigures figures = figuresOf ? figuresOf(run) : StoredFigures{};
    writeThroughPartial(path, [&](const std::string& partial) {
        SqliteDb db(partial, SqliteDb::Mode::Create);
        // The temporary file is thrown away if anything fails, so no journal is needed.
        db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;");
        db.exec("PRAGMA application_id=" + std::to_string(kRunFileApplicationId) + "; PRAGMA user_version=" + std::to_string(kRunFileSchemaVersion) + ";");
        db.exec("BEGIN");
        db.exec(schema::kTables);
        db.exec(schema::kTopologyTables);
        writeRows(db, run, figures, pulls, 0);
        db.exec("COMMIT");
    });
}

void updateRunFile(const Run& run, const std::string& path, std::size_t keptRankSteps, const FiguresOf& figuresOf, const std::vector<PulledSource>& pulls) {
    checkWritable(run, path);
    const StoredFigures figures = figuresOf ? figuresOf(run) : StoredFigures{};
    writeThroughPartial(path, [&](const std::string& partial) {
        std::filesystem::copy_file(path, partial, std::filesystem::copy_options::overwrite_existing);
        SqliteDb db(partial, SqliteDb::Mode::ReadWrite);
        db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
        std::int64_t id = 0, version = 0;
        for (SqliteStatement s(db, "PRAGMA application_id"); s.next();) id = s.int64(0);
        for (SqliteStatement s(db, "PRAGMA user_version"); s.next();) version = s.int64(0);
        if (id != kRunFileApplicationId || version != kRunFileSchemaVersion) throw Error(path + ": not a run file of this version to update");
        std::int64_t rows = 0;
        for (SqliteStatement s(db, "SELECT count(*) FROM rank_steps"); s.next();) rows = s.int64(0);
        if (static_cast<std::size_t>(rows) < keptRankSteps) throw Error(path + ": holds fewer rank steps than were written to it");
        db.exec("BEGIN");
        // rank_steps' rows stay; every other table is made anew, as writeRunFile makes it.
        // An index on it (files written before version 8's last builds had one) would cost a
        // b-tree walk for every row taken out and put in: rank_steps is read whole, in order.
        db.exec("DROP INDEX IF EXISTS rank_steps_rank; ALTER TABLE rank_steps RENAME TO rank_steps_kept");
        std::vector<std::string> tables;
        for (SqliteStatement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'rank_steps_kept'"); s.next();)
            tables.push_back(s.text(0));
        for (const std::string& table : tables) db.exec("DROP TABLE \"" + table + "\"");
        db.exec(schema::kTables);
        db.exec(schema::kTopologyTables);
        db.exec("DROP TABLE rank_steps; ALTER TABLE rank_steps_kept RENAME TO rank_steps");
        SqliteStatement(db, "DELETE FROM rank_steps WHERE id >= ?").bind(1, static_cast<std::int64_t>(keptRankSteps)).execute();
        writeRows(db, run, figures, pulls, keptRankSteps);
        db.exec("COMMIT");
    });
}

}  // namespace faultline
