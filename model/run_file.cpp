#include "run_file.h"

#include "error.h"
#include "run_file_schema.h"
#include "sqlite_db.h"

#include <sqlite3.h>

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace faultline {

namespace {

void writeMeta(SqliteDb& db, const RunInfo& info) {
    SqliteStatement s(db, "INSERT INTO meta(key, value) VALUES(?, ?)");
    s.bind(1, std::string_view("name")).bind(2, std::string_view(info.name)).execute();
    s.bind(1, std::string_view("source")).bind(2, std::string_view(info.source)).execute();
    s.bind(1, std::string_view("start_epoch_ns")).bind(2, info.startEpochNs).execute();
    s.bind(1, std::string_view("duration_ns")).bind(2, info.duration).execute();
}

void writeTopology(SqliteDb& db, const Topology& t) {
    {
        SqliteStatement s(db, "INSERT INTO zones VALUES(?, ?)");
        for (std::size_t i = 0; i < t.zones.size(); ++i)
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(t.zones[i].name)).execute();
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
        SqliteStatement s(db, "INSERT INTO hosts VALUES(?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.hosts.size(); ++i) {
            const Host& h = t.hosts[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(h.name)).bind(3, std::int64_t{h.rack});
            s.bind(4, std::int64_t{h.firstGpu}).bind(5, std::int64_t{h.gpuCount});
            s.bind(6, std::int64_t{h.firstNic}).bind(7, std::int64_t{h.nicCount}).execute();
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
        SqliteStatement s(db, "INSERT INTO switches VALUES(?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < t.switches.size(); ++i) {
            const Switch& w = t.switches[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(w.name));
            s.bind(3, std::string_view(schema::enumText(schema::kSwitchTiers, w.tier)));
            s.bind(4, std::int64_t{w.zone}).bind(5, std::int64_t{w.rack}).execute();
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

void writeEvents(SqliteDb& db, const Run& run) {
    {
        SqliteStatement s(db, "INSERT INTO failures VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.failures.size(); ++i) {
            const Failure& f = run.failures[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, f.time).bind(3, rootCauseKey(f.cause));
            s.bind(4, std::string_view(schema::enumText(schema::kComponentKinds, f.component.kind))).bind(5, std::int64_t{f.component.index});
            s.bind(6, std::int64_t{f.xid}).bindBlob(7, f.gpus).bind(8, std::string_view(f.detail)).execute();
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
        for (std::size_t i = 0; i < run.rankSteps.size(); ++i) {
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
        SqliteStatement s(db, "INSERT INTO collectives VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t i = 0; i < run.collectives.size(); ++i) {
            const CollectiveRecord& c = run.collectives[i];
            s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::int64_t{c.rank}).bind(3, std::int64_t{c.group});
            s.bind(4, std::int64_t{c.op}).bind(5, c.seq).bind(6, c.enter).bind(7, c.exit).bind(8, c.bytes).execute();
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO rank_map VALUES(?, ?)");
        for (std::size_t r = 0; r < run.rankToGpu.size(); ++r)
            s.bind(1, static_cast<std::int64_t>(r)).bind(2, std::int64_t{run.rankToGpu[r]}).execute();
    }
}

// SQLite with synchronous=OFF does not flush; the file must be on disk before the rename
// makes it visible under its real name.
void flushToDisk(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw Error("cannot reopen " + path + " to flush it to disk");
    const int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0) throw Error("cannot flush " + path + " to disk");
}

}  // namespace

void writeRunFile(const Run& run, const std::string& path) {
    const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) throw Error("cannot write " + path + ": there is no folder " + folder.string());
    const std::string temp = path + ".partial-" + std::to_string(::getpid());
    std::filesystem::remove(temp);
    try {
        {
            SqliteDb db(temp, SqliteDb::Mode::Create);
            // The temporary file is thrown away if anything fails, so no journal is needed.
            db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192;");
            db.exec("PRAGMA application_id=" + std::to_string(kRunFileApplicationId) +
                    "; PRAGMA user_version=" + std::to_string(kRunFileSchemaVersion) + ";");
            db.exec("BEGIN");
            db.exec(schema::kTables);
            writeMeta(db, run.info);
            writeTopology(db, run.topology);
            writeEvents(db, run);
            db.exec(schema::kIndexes);
            db.exec("COMMIT");
        }
        flushToDisk(temp);
        std::filesystem::rename(temp, path);
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(temp, ignored);
        throw;
    }
}

}  // namespace faultline
