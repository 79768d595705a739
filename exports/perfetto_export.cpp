#include "exports/perfetto_export.h"

#include "analysis/incidents.h"
#include "model/checked_write.h"
#include "model/error.h"
#include "model/partial_file.h"
#include "model/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace faultline {

namespace {

constexpr int kRunPid = 1;
constexpr int kRanksPid = 2;
constexpr int kStragglerLaneTid = 100;  // further straggler lanes: 101, 102, ...
enum Track { JobState = 1, DowntimeTrack, CheckpointTrack, FailureTrack, StragglerTrack, StepTrack };

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// Microseconds with nanosecond precision kept: trace viewers read fractional ts.
std::string micros(Nanos t) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(t / 1000), static_cast<long long>(std::llabs(t % 1000)));
    return buf;
}

class TraceWriter {
public:
    TraceWriter(std::ostream& out, const std::atomic<bool>* cancel) : m_out(out), m_cancel(cancel) {}

    void begin(const RunInfo& info) {
        m_out << "{\"displayTimeUnit\":\"ms\",\"metadata\":{\"run\":" << quoted(info.name)
              << ",\"start_utc\":" << quoted(formatWallTime(info.startEpochNs, 0)) << ",\"start_epoch_ns\":" << info.startEpochNs
              << ",\"source\":" << quoted(info.source) << "},\n\"traceEvents\":[\n";
    }
    void end() { m_out << "\n]}\n"; }

    void process(int pid, const std::string& name, int sort) {
        meta(pid, 0, "process_name", name);
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
              std::to_string(sort) + "}}");
    }
    void track(int pid, int tid, const std::string& name) {
        meta(pid, tid, "thread_name", name);
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
              ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid) + "}}");
        ++m_stats.tracks;
    }
    // A complete slice; `args` is a JSON object's text or empty.
    void slice(int pid, int tid, const std::string& name, Nanos begin, Nanos end, const std::string& args = "", const char* cat = "run") {
        std::string e = "{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"cat\":\"" + cat +
                        "\",\"name\":" + quoted(name) + ",\"ts\":" + micros(begin) + ",\"dur\":" + micros(std::max<Nanos>(0, end - begin));
        if (!args.empty()) e += ",\"args\":" + args;
        event(e + "}");
    }
    void instant(int pid, int tid, const std::string& name, Nanos t, const std::string& args) {
        event("{\"ph\":\"i\",\"s\":\"t\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
              ",\"cat\":\"failure\",\"name\":" + quoted(name) + ",\"ts\":" + micros(t) + ",\"args\":" + args + "}");
    }
    void counter(int pid, const std::string& name, Nanos t, double value) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.6g", value);
        event("{\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",\"name\":" + quoted(name) + ",\"ts\":" + micros(t) +
              ",\"args\":{\"value\":" + buf + "}}");
    }
    const PerfettoStats& stats() const { return m_stats; }

private:
    void meta(int pid, int tid, const char* what, const std::string& name) {
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"name\":\"" + what +
              "\",\"args\":{\"name\":" + quoted(name) + "}}");
    }
    void event(const std::string& e) {
        if (m_stats.events > 0) m_out << ",\n";
        m_out << e;
        // Checked every few thousand events: cheap, and Cancel answers within milliseconds.
        if ((++m_stats.events & 4095) == 0 && m_cancel && m_cancel->load()) throw ExportCancelled{};
    }

    std::ostream& m_out;
    const std::atomic<bool>* m_cancel;
    PerfettoStats m_stats;
};

void writeRunTracks(const Run& run, TraceWriter& w) {
    w.process(kRunPid, "Run " + run.info.name, 0);
    const auto& names = perfettoRunTracks();
    for (int t = JobState; t <= StepTrack; ++t) w.track(kRunPid, t, names[static_cast<std::size_t>(t - 1)]);

    // Job state: training between downtimes, the downtimes themselves named by cause.
    for (const TrainingSegment& s : trainingSegments(run)) w.slice(kRunPid, JobState, "Training", s.begin, s.end);
    for (const Downtime& d : run.downtimes) {
        const std::string cause(rootCauseLabel(d.cause));
        w.slice(kRunPid, JobState, d.planned ? "Planned maintenance" : "Down", d.begin, d.end);
        const nlohmann::json args = {{"cause", cause},
                                     {"lost_work_s", toSeconds(d.lostWork)},
                                     {"downtime_s", toSeconds(d.end - d.begin)}};
        // Nested by time on one track: the downtime, then its phases inside it.
        w.slice(kRunPid, DowntimeTrack, cause, d.begin, d.end, args.dump(), "downtime");
        if (d.detected > d.begin) w.slice(kRunPid, DowntimeTrack, "Detection", d.begin, d.detected, "", "downtime");
        if (d.restarted > d.detected) w.slice(kRunPid, DowntimeTrack, "Restart", d.detected, d.restarted, "", "downtime");
        if (d.end > d.restarted) w.slice(kRunPid, DowntimeTrack, "Checkpoint reload", d.restarted, d.end, "", "downtime");
    }
    for (const Checkpoint& c : run.checkpoints) {
        const nlohmann::json args = {{"step", c.step}, {"bytes", c.bytes}};
        w.slice(kRunPid, CheckpointTrack, (c.kind == CheckpointKind::Save ? "Save step " : "Load step ") + std::to_string(c.step), c.begin,
                c.end, args.dump(), "checkpoint");
    }
    for (const Failure& f : run.failures) {
        nlohmann::json args = {{"cause", rootCauseLabel(f.cause)}, {"hardware", describeHardware(run.topology, f)},
                               {"gpus", f.gpus.size()}, {"detail", f.detail}};
        if (f.xid) args["xid"] = f.xid;
        w.instant(kRunPid, FailureTrack, std::string(rootCauseLabel(f.cause)), f.time, args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    // Episodes of different GPUs overlap, and slices on one track must nest: overlapping
    // ones go to further lanes ("Stragglers · lane 2", ...) below the first.
    std::vector<const StragglerEpisode*> episodes;
    for (const StragglerEpisode& s : run.stragglers) episodes.push_back(&s);
    std::stable_sort(episodes.begin(), episodes.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
    std::vector<Nanos> laneEnds;
    for (const StragglerEpisode* s : episodes) {
        std::size_t lane = 0;
        while (lane < laneEnds.size() && laneEnds[lane] > s->begin) ++lane;
        if (lane == laneEnds.size()) {
            laneEnds.push_back(0);
            if (lane > 0) w.track(kRunPid, kStragglerLaneTid + static_cast<int>(lane), "Stragglers · lane " + std::to_string(lane + 1));
        }
        laneEnds[lane] = s->end;
        const int tid = lane == 0 ? StragglerTrack : kStragglerLaneTid + static_cast<int>(lane);
        const nlohmann::json args = {{"gpu", s->gpu}, {"slowdown", s->slowdown}, {"cause", s->cause}};
        char name[64];
        std::snprintf(name, sizeof name, "GPU %d %.0f%% slower", s->gpu, (s->slowdown - 1.0) * 100.0);
        w.slice(kRunPid, tid, name, s->begin, s->end, args.dump(), "straggler");
    }
    for (const Step& s : run.steps) {
        w.slice(kRunPid, StepTrack, "step " + std::to_string(s.step), s.time - s.duration, s.time, "", "step");
        w.counter(kRunPid, "Step time (s)", s.time - s.duration, toSeconds(s.duration));
    }
}

void writeRankTracks(const Run& run, TraceWriter& w) {
    if (run.collectives.empty()) return;
    w.process(kRanksPid, "Ranks (traced collectives)", 1);
    std::int32_t maxRank = -1;
    for (const CollectiveRecord& c : run.collectives) maxRank = std::max(maxRank, c.rank);
    std::vector<bool> seen(static_cast<std::size_t>(maxRank + 1), false);
    for (const CollectiveRecord& c : run.collectives) seen[static_cast<std::size_t>(c.rank)] = true;
    // tid 0 is the process's own; rank r is tid r + 1.
    for (std::int32_t r = 0; r <= maxRank; ++r)
        if (seen[static_cast<std::size_t>(r)]) w.track(kRanksPid, r + 1, "rank " + std::to_string(r));
    for (const CollectiveRecord& c : run.collectives) {
        const std::string op = c.op >= 0 && static_cast<std::size_t>(c.op) < run.collectiveOps.size() ? run.collectiveOps[static_cast<std::size_t>(c.op)] : "collective";
        const std::string group = c.group >= 0 && static_cast<std::size_t>(c.group) < run.processGroups.size() ? run.processGroups[static_cast<std::size_t>(c.group)].name : "";
        const nlohmann::json args = {{"group", group}, {"seq", c.seq}, {"bytes", c.bytes}};
        w.slice(kRanksPid, c.rank + 1, op, c.enter, c.exit, args.dump(), "collective");
    }
}

}  // namespace

const std::vector<std::string>& perfettoRunTracks() {
    static const std::vector<std::string> names{"Job state", "Downtime by cause", "Checkpoints", "Failures", "Stragglers", "Steps"};
    return names;
}

PerfettoStats writePerfettoTrace(const Run& run, std::ostream& out, const std::atomic<bool>* cancel) {
    TraceWriter w(out, cancel);
    w.begin(run.info);
    writeRunTracks(run, w);
    writeRankTracks(run, w);
    w.end();
    return w.stats();
}

PerfettoStats writePerfettoTraceFile(const Run& run, const std::string& path, const std::atomic<bool>* cancel) {
    PerfettoStats stats;
    writeThroughPartial(path, [&](const std::string& partial) {
        CheckedFileBuf file(partial);  // every byte counted, the cause kept
        std::ostream out(&file);
        stats = writePerfettoTrace(run, out, cancel);
        file.finish();
    });
    return stats;
}

}  // namespace faultline
