#include "cluster_logs.h"

#include "cluster_log_lines.h"
#include "ibnetdiscover_dump.h"
#include "link_counter_logs.h"
#include "model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace faultline {

namespace {

// One run of a job: from its start to the downtime that ended it (or the run's end).
struct JobRun {
    std::string id;
    int restarts = 0;
    Nanos submit = 0, start = 0, firstLine = 0, end = 0;
    bool running = false;
    std::string state = "RUNNING", exitCode = "0:0";
    std::size_t downtimeAfter = SIZE_MAX;
};

// A host going down under the job is a node failure, which Slurm answers by requeueing the
// job under the same id; anything else fails the job, and the next one is a new submission.
bool takesNodeDown(RootCause cause) {
    return rootCauseInfo(cause).scope == CauseScope::Host && cause != RootCause::Ssd;
}

std::vector<JobRun> planJobs(const Run& run) {
    std::vector<JobRun> out;
    long nextId = 4242001;
    JobRun cur;
    cur.id = std::to_string(nextId++);
    cur.submit = -10 * kMinute;
    for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
        const Downtime& d = run.downtimes[i];
        cur.end = d.detected;
        cur.downtimeAfter = i;
        const bool nodeFail = !d.planned && takesNodeDown(d.cause);
        cur.state = d.planned ? "CANCELLED by 0" : nodeFail ? "NODE_FAIL" : "FAILED";
        cur.exitCode = d.planned ? "0:15" : nodeFail ? "0:0" : "1:0";
        out.push_back(cur);
        JobRun next;
        next.id = nodeFail ? cur.id : std::to_string(nextId++);
        next.restarts = nodeFail ? cur.restarts + 1 : 0;
        next.submit = d.detected;
        // The allocation starts a little before the job prints its first line.
        next.start = d.restarted - std::min<Nanos>(20 * kSecond, (d.restarted - d.detected) / 2);
        next.firstLine = d.restarted;
        cur = next;
    }
    cur.running = true;
    cur.end = run.info.duration;
    out.push_back(cur);
    return out;
}

class Writer {
public:
    Writer(const Run& run, std::string dir, std::string name)
        : m_run(run), m_dir(std::move(dir)), m_name(std::move(name)), m_jobs(planJobs(run)) {
        for (const Host& h : run.topology.hosts) m_hosts.push_back(h.name);
        m_nodeList = slurmHostList(m_hosts);
    }

    ClusterLogSummary write() {
        for (const char* sub : {"", "kernel", "logs"}) createFolder(sub);
        writeSacctText();
        writeSacctJson();
        writeTopology();
        writeKernelLogs();
        writeLinkCounters();
        for (std::size_t k = 0; k < m_jobs.size(); ++k) writeTrainingLog(k);
        m_summary.jobs = static_cast<int>(m_jobs.size());
        return m_summary;
    }

private:
    std::int64_t epoch(Nanos t) const { return m_run.info.startEpochNs + t; }

    void createFolder(const char* relative) {
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(m_dir) / relative, ec);
        if (ec) throw Error("cannot create " + (std::filesystem::path(m_dir) / relative).string() + ": " + ec.message());
    }

    void save(const std::string& relative, const std::string& text, bool append = false) {
        const std::string path = (std::filesystem::path(m_dir) / relative).string();
        std::FILE* f = std::fopen(path.c_str(), append ? "ab" : "wb");
        if (!f) throw Error("cannot write " + path);
        const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
        if (std::fclose(f) != 0 || !ok) throw Error("cannot write " + path + " (disk full?)");
        m_summary.bytes += static_cast<std::int64_t>(text.size());
    }

    std::string tres(std::size_t nodes) const {
        const std::size_t gpus = nodes == m_hosts.size() ? m_run.topology.gpus.size() : nodes * 8;
        return "billing=" + std::to_string(nodes * 96) + ",cpu=" + std::to_string(nodes * 96) + ",gres/gpu=" + std::to_string(gpus) +
               ",mem=" + std::to_string(nodes * 1800) + "G,node=" + std::to_string(nodes);
    }

    static std::string elapsed(Nanos d) {
        const long long s = std::max<Nanos>(0, d) / kSecond;
        char buf[32];
        if (s >= 86400) std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
        else std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
        return buf;
    }

    void writeSacctText() {
        std::string out = "JobID|JobIDRaw|JobName|Partition|State|ExitCode|Reason|Submit|Start|End|Elapsed|NNodes|NodeList|AllocTRES|\n";
        for (const JobRun& j : m_jobs) {
            const std::string end = j.running ? "Unknown" : sacctTime(epoch(j.end));
            const std::string common = "|" + j.state + "|" + j.exitCode + "|None|" + sacctTime(epoch(j.submit)) + "|" +
                                       sacctTime(epoch(j.start)) + "|" + end + "|" + elapsed(j.end - j.start) + "|";
            const std::string all = std::to_string(m_hosts.size()) + "|" + m_nodeList + "|" + tres(m_hosts.size()) + "|\n";
            out += j.id + "|" + j.id + "|" + m_name + "|train" + common + all;
            out += j.id + ".batch|" + j.id + ".batch|batch|" + common + "1|" + m_hosts.front() + "|" + tres(1) + "|\n";
            out += j.id + ".0|" + j.id + ".0|python|" + common + all;
        }
        save("sacct.txt", out);
    }

    void writeSacctJson() {
        nlohmann::json jobs = nlohmann::json::array();
        for (const JobRun& j : m_jobs) {
            const std::string state = j.state.substr(0, j.state.find(' '));
            const int code = std::stoi(j.exitCode.substr(0, j.exitCode.find(':')));
            const int signal = std::stoi(j.exitCode.substr(j.exitCode.find(':') + 1));
            jobs.push_back({{"job_id", std::stol(j.id)},
                            {"name", m_name},
                            {"nodes", m_nodeList},
                            {"partition", "train"},
                            {"restart_cnt", j.restarts},
                            {"state", {{"current", state}, {"reason", "None"}}},
                            {"exit_code", {{"status", code == 0 && signal == 0 ? "SUCCESS" : "FAILED"}, {"return_code", code}, {"signal", {{"signal_id", signal}, {"name", ""}}}}},
                            {"time", {{"submission", epoch(j.submit) / kSecond}, {"start", epoch(j.start) / kSecond}, {"end", j.running ? 0 : epoch(j.end) / kSecond}, {"elapsed", std::max<Nanos>(0, j.end - j.start) / kSecond}}},
                            {"tres", {{"allocated", {{{"type", "gres"}, {"name", "gpu"}, {"id", 1001}, {"count", m_run.topology.gpus.size()}},
                                                     {{"type", "node"}, {"name", ""}, {"id", 4}, {"count", m_hosts.size()}}}}}},
                            {"steps", nlohmann::json::array()}});
        }
        const nlohmann::json doc = {{"meta", {{"slurm", {{"version", {{"major", 23}, {"minor", 2}, {"micro", 6}}}}}}}, {"jobs", jobs}, {"errors", nlohmann::json::array()}};
        save("sacct.json", doc.dump(1) + "\n");
    }

    void writeTopology() {
        const Topology& t = m_run.topology;
        if (t.fabric == FabricKind::InfinibandFatTree) {
            save("ibnetdiscover.out", ibnetdiscoverDump(t));
            return;
        }
        std::string out = "# Slurm topology.conf for the simulated cluster: rack switches over cluster switches over aggregation\n";
        std::map<std::int32_t, std::vector<std::string>> hostsOfRack;
        for (const Host& h : t.hosts) hostsOfRack[h.rack].push_back(h.name);
        std::map<std::int32_t, std::vector<std::string>> below;  // switch -> the switches cabled under it
        for (const Link& l : t.links)
            if (l.lower.kind == NodeKind::Switch && l.upper.kind == NodeKind::Switch)
                below[l.upper.index].push_back(t.switches[static_cast<std::size_t>(l.lower.index)].name);
        for (std::size_t i = 0; i < t.switches.size(); ++i) {
            const Switch& s = t.switches[i];
            if (s.tier == SwitchTier::Rack) {
                out += "SwitchName=" + s.name + " Nodes=" + slurmHostList(hostsOfRack[s.rack]) + "\n";
            } else if (auto it = below.find(static_cast<std::int32_t>(i)); it != below.end()) {
                std::string list;
                for (const std::string& n : it->second) list += (list.empty() ? "" : ",") + n;
                out += "SwitchName=" + s.name + " Switches=" + list + "\n";
            }
        }
        save("topology.conf", out);
    }

    void writeLinkCounters() {
        const auto scrapes = linkDownCounterScrapes(m_run);
        if (scrapes.empty()) return;
        createFolder("infiniband");
        for (const auto& [host, text] : scrapes) save("infiniband/" + m_hosts[static_cast<std::size_t>(host)] + ".prom", text);
    }

    void writeKernelLogs() {
        std::map<std::int32_t, std::vector<std::pair<Nanos, std::string>>> lines;
        for (const Downtime& d : m_run.downtimes) {
            if (d.planned || d.failure < 0) continue;
            const Failure& f = m_run.failures[static_cast<std::size_t>(d.failure)];
            for (std::int32_t h : evidenceHosts(m_run.topology, f)) {
                const std::string text = kernelEvidence(m_run.topology, f, h);
                if (text.empty()) continue;
                // The driver repeats itself: a burst of the same line within milliseconds.
                for (int r = 0; r < 3; ++r) lines[h].push_back({f.time + r * 2 * kMillisecond, text});
            }
        }
        for (auto& [host, list] : lines) {
            std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            // The log begins at boot, with the kernel enumerating the host's GPUs (H100 SXM,
            // 10de:2330): what says which bus id is which CUDA device.
            std::string out;
            const Host& h = m_run.topology.hosts[static_cast<std::size_t>(host)];
            for (std::int32_t g = 0; g < h.gpuCount; ++g)
                out += "kern  :info  : " + dmesgTime(epoch(-3 * kDay + g * kMillisecond)) + " pci " +
                       m_run.topology.gpus[static_cast<std::size_t>(h.firstGpu + g)].pciBusId + ": [10de:2330] type 00 class 0x030200\n";
            for (const auto& [t, text] : list) out += "kern  :warn  : " + dmesgTime(epoch(t)) + " " + text + "\n";
            save("kernel/" + m_hosts[static_cast<std::size_t>(host)] + ".dmesg.log", out);
            ++m_summary.kernelLogs;
        }
    }

    std::string banner(const JobRun& j) const {
        const std::size_t world = m_run.topology.gpus.size();
        std::size_t pp = 16;
        while (pp > 1 && world % (8 * pp) != 0) pp /= 2;
        const std::size_t tp = world % 8 == 0 ? 8 : 1;
        return "SLURM_JOB_ID=" + j.id + "\nSLURM_JOB_NAME=" + m_name + "\nSLURM_RESTART_COUNT=" + std::to_string(j.restarts) +
               "\nSLURM_JOB_NODELIST=" + m_nodeList + "\nSLURM_NNODES=" + std::to_string(m_hosts.size()) + "\nSLURM_GPUS_ON_NODE=8\n" +
               "[" + logTime(epoch(j.firstLine)) + "] launching " + m_name + ": job " + j.id + ", restart " + std::to_string(j.restarts) + ", " +
               std::to_string(m_hosts.size()) + " nodes\n" + "using world size: " + std::to_string(world) +
               ", data-parallel size: " + std::to_string(world / tp / pp) + ", context-parallel size: 1, tensor-model-parallel size: " +
               std::to_string(tp) + ", pipeline-model-parallel size: " + std::to_string(pp) + "\n";
    }

    // Lines other than iterations, in time order: checkpoints, errors, watchdog timeouts.
    std::vector<std::pair<Nanos, std::string>> eventLines(const JobRun& j) const {
        std::vector<std::pair<Nanos, std::string>> out;
        const std::string path = "/checkpoints/" + m_name;
        for (const Checkpoint& c : m_run.checkpoints) {
            if (c.begin < j.firstLine || c.begin > j.end) continue;
            const std::string it = std::to_string(c.step);
            if (c.kind == CheckpointKind::Save) {
                out.push_back({c.begin, "saving checkpoint at iteration " + std::string(8 - std::min<std::size_t>(8, it.size()), ' ') + it + " to " + path + " in torch_dist format"});
                out.push_back({c.end, "successfully saved checkpoint from iteration " + it + " to " + path + " [ t 1/8, p 1/16 ]"});
            } else {
                out.push_back({c.begin, "loading checkpoint from " + path + " at iteration " + it});
                out.push_back({c.end, "successfully loaded checkpoint from " + path + " [ t 1/8, p 1/16 ] at iteration " + it});
            }
        }
        if (j.downtimeAfter != SIZE_MAX) {
            const Downtime& d = m_run.downtimes[j.downtimeAfter];
            if (d.planned) {
                out.push_back({d.detected, "slurmstepd: error: *** JOB " + j.id + " ON " + m_hosts.front() + " CANCELLED AT " + sacctTime(epoch(d.detected)) + " ***"});
            } else if (d.failure >= 0) {
                const Failure& f = m_run.failures[static_cast<std::size_t>(d.failure)];
                const auto step = std::upper_bound(m_run.steps.begin(), m_run.steps.end(), f.time, [](Nanos t, const Step& s) { return t < s.time; });
                const std::int64_t at = step == m_run.steps.end() ? 0 : step->step;
                if (const std::string e = trainingLogEvidence(m_run.topology, f, at); !e.empty()) out.push_back({f.time, e});
                if (d.cause == RootCause::NcclWatchdogTimeout || d.cause == RootCause::NetworkSwitchCable || d.cause == RootCause::SilentDataCorruption) {
                    // Every rank waiting on the hung collective reports it; a few of them here.
                    const Nanos fired = std::max(d.begin, d.detected - 2 * kSecond);
                    for (std::size_t r = 0; r < std::min<std::size_t>(4, std::max<std::size_t>(1, f.gpus.size())); ++r) {
                        const std::string rank = std::to_string(f.gpus.empty() ? 0 : f.gpus[r]);
                        out.push_back({fired, "[rank" + rank + "]:[E ProcessGroupNCCL.cpp:632] [Rank " + rank +
                                                  "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(1000 + at) +
                                                  ", OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for 600021 milliseconds before timing out."});
                    }
                }
            }
        }
        std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        return out;
    }

    void writeTrainingLog(std::size_t k) {
        const JobRun& j = m_jobs[k];
        std::string out = banner(j);
        const auto events = eventLines(j);
        auto step = std::upper_bound(m_run.steps.begin(), m_run.steps.end(), j.firstLine, [](Nanos t, const Step& s) { return t < s.time; });
        const std::int64_t total = m_run.steps.empty() ? 0 : m_run.steps.back().step;
        std::size_t e = 0;
        char buf[320];
        auto emitEvent = [&] {
            out += "[" + logTime(epoch(events[e].first)) + "] " + events[e].second + "\n";
            ++e;
        };
        for (; step != m_run.steps.end() && step->time <= j.end; ++step) {
            while (e < events.size() && events[e].first <= step->time) emitEvent();
            std::snprintf(buf, sizeof buf,
                          "[%s] iteration %8lld/%8lld | consumed samples: %12lld | elapsed time per iteration (ms): %.1f | "
                          "learning rate: 1.500000E-04 | global batch size:  2048 | lm loss: %.6E | loss scale: 1.0 |\n",
                          logTime(epoch(step->time)).c_str(), static_cast<long long>(step->step), static_cast<long long>(total),
                          static_cast<long long>(step->step) * 2048, toSeconds(step->duration) * 1e3, 2.0 + 8.0 / (1.0 + static_cast<double>(step->step) / 1000.0));
            out += buf;
            if (out.size() > (32u << 20)) flush(j, k, out);
        }
        while (e < events.size()) emitEvent();
        flush(j, k, out);
    }

    // A requeued job writes on in the file of its first run, as `--open-mode=append` does.
    void flush(const JobRun& j, std::size_t k, std::string& out) {
        const std::string file = "logs/" + m_name + "-" + j.id + ".out";
        const bool first = j.restarts == 0 && (m_started.insert(k).second && m_written.insert(file).second);
        save(file, out, !first);
        out.clear();
    }

    const Run& m_run;
    std::string m_dir, m_name;
    std::vector<JobRun> m_jobs;
    std::vector<std::string> m_hosts;
    std::string m_nodeList;
    std::set<std::size_t> m_started;
    std::set<std::string> m_written;
    ClusterLogSummary m_summary;
};

}  // namespace

ClusterLogSummary writeClusterLogs(const Run& run, const std::string& dir, const std::string& jobName) {
    if (run.topology.hosts.empty()) throw Error("the run has no hosts to write logs for");
    return Writer(run, dir, jobName).write();
}

}  // namespace faultline
