#include "incidents.h"
#include "figure_evidence.h"
#include "telemetry_warnings.h"

#include "model/format.h"
#include "model/unplaced_hosts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace faultline {

namespace {

// The last step that finished at or before `t`.
const Step* stepAt(const std::vector<Step>& steps, Nanos t) {
    auto it = std::upper_bound(steps.begin(), steps.end(), t, [](Nanos v, const Step& s) { return v < s.time; });
    return it == steps.begin() ? nullptr : &*std::prev(it);
}

// The checkpoint of `kind` whose interval best matches: the last that began at or before `t`.
const Checkpoint* checkpointBefore(const std::vector<Checkpoint>& checkpoints, CheckpointKind kind, Nanos t, bool byEnd) {
    const Checkpoint* best = nullptr;
    for (const Checkpoint& c : checkpoints) {
        const Nanos at = byEnd ? c.end : c.begin;
        if (c.kind == kind && at <= t && (!best || at >= (byEnd ? best->end : best->begin))) best = &c;
    }
    return best;
}

}  // namespace

std::string incidentCauseLabel(RootCause cause, const Failure* failure) {
    if (cause == RootCause::NetworkSwitchCable) {
        const ComponentKind kind = failure ? failure->component.kind : ComponentKind::None;
        if (kind != ComponentKind::Switch && kind != ComponentKind::Link) return kUnknownLink;
    }
    return std::string(rootCauseLabel(cause));
}

std::string describeHardware(const Topology& t, const Failure& f) {
    const auto i = static_cast<std::size_t>(f.component.index);
    switch (f.component.kind) {
        case ComponentKind::Gpu:
            return t.gpuName(f.component.index) + (t.gpus.at(i).pciBusId.empty() ? "" : " (" + t.gpus.at(i).pciBusId + ")");
        case ComponentKind::Host: return t.hosts.at(i).name + " (" + std::to_string(f.gpus.size()) + " GPUs)";
        case ComponentKind::Nic: return t.nicName(f.component.index);
        case ComponentKind::Switch:
            return t.switches.at(i).name + " (" + switchTierName(t.switches.at(i).tier, t.fabric) + ", " + formatCount(static_cast<std::int64_t>(f.gpus.size())) + " GPUs)";
        case ComponentKind::Link: return "cable " + t.linkName(f.component.index);
        case ComponentKind::None: break;
    }
    if (f.gpus.size() == 1) return t.gpuName(f.gpus.front());
    if (f.gpus.empty()) return "";
    // GPUs of one host, no one of them the failed part: the host they share names them.
    const auto hostOf = [&t](std::int32_t g) { return g >= 0 && static_cast<std::size_t>(g) < t.gpus.size() ? t.gpus[static_cast<std::size_t>(g)].host : -1; };
    const std::int32_t host = hostOf(f.gpus.front());
    const bool oneHost = host >= 0 && std::all_of(f.gpus.begin(), f.gpus.end(), [&](std::int32_t g) { return hostOf(g) == host; });
    const std::string count = std::to_string(f.gpus.size()) + " GPUs";
    return oneHost && !isUnplacedHost(t.hosts[static_cast<std::size_t>(host)]) ? t.hosts[static_cast<std::size_t>(host)].name + " (" + count + ")" : count;
}

std::string gpuHoursText(const std::optional<double>& gpuHours) {
    if (!gpuHours) return "unknown";
    if (*gpuHours >= 10) return formatCount(std::llround(*gpuHours));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", *gpuHours);
    return buf;
}

std::vector<Incident> buildIncidents(const Run& run) {
    std::vector<Incident> out;
    std::vector<char> failureUsed(run.failures.size(), 0);
    for (std::size_t di = 0; di < run.downtimes.size(); ++di) {
        const Downtime& d = run.downtimes[di];
        Incident inc;
        inc.planned = d.planned;
        inc.cause = d.cause;
        inc.downtime = static_cast<int>(di);
        inc.failure = d.failure;
        inc.begin = d.begin;
        inc.lostWork = d.lostWork;
        inc.detection = d.detected - d.begin;
        inc.restart = d.restarted - d.detected;
        inc.reload = d.end - d.restarted;
        if (const Step* s = stepAt(run.steps, d.begin)) inc.stepAtFailure = s->step;

        if (d.failure >= 0 && static_cast<std::size_t>(d.failure) < run.failures.size()) {
            const Failure& f = run.failures[static_cast<std::size_t>(d.failure)];
            failureUsed[static_cast<std::size_t>(d.failure)] = 1;
            inc.begin = std::min(inc.begin, f.time);
            inc.xid = f.xid;
            inc.gpus = f.gpus;
            inc.reportingRanks = f.ranks;
            inc.suspectRanks = f.suspectRanks;
            inc.suspectReason = suspectReasonOf(f);
            inc.hardware = describeHardware(run.topology, f);
            // What the GPU's error counters said in the hour before (telemetry_warnings.h).
            for (const EarlyWarning& w : earlyWarnings(run, f.gpus, f.time))
                inc.chain.push_back({w.time, "early warning on " + run.topology.gpuName(w.gpu) + ": " + w.text});
            inc.chain.push_back({f.time, "first symptom: " + f.detail});
        }
        if (d.job >= 0 && static_cast<std::size_t>(d.job) < run.jobs.size()) {
            const Job& j = run.jobs[static_cast<std::size_t>(d.job)];
            const std::string job = "job " + j.id + (j.name.empty() ? "" : " (" + j.name + ")");
            inc.chain.push_back({j.end.value_or(d.detected),
                                 j.state.empty() ? job + " stopped; no scheduler record says how it ended"
                                                 : "Slurm " + job + " ended " + j.state +
                                                       (j.exitCode.empty() || j.exitCode == "0:0" ? "" : ", exit code " + j.exitCode) + " on " +
                                                       std::to_string(j.hosts.size()) + " nodes"});
        }
        if (d.planned) {
            if (const Checkpoint* save = checkpointBefore(run.checkpoints, CheckpointKind::Save, d.begin, true); save && save->end == d.begin)
                inc.chain.push_back({save->begin, "checkpoint of step " + std::to_string(save->step) + " saved before the planned stop"});
            inc.chain.push_back({d.begin, "job stopped for planned maintenance"});
        } else {
            if (const Checkpoint* save = checkpointBefore(run.checkpoints, CheckpointKind::Save, d.begin, true))
                inc.chain.push_back({save->end, "last durable checkpoint: step " + std::to_string(save->step) + ", " +
                                                    formatDuration(d.begin - save->end) + " before the failure"});
            inc.chain.push_back({d.begin, "job stopped making progress"});
            inc.chain.push_back({d.detected, "failure detected, job torn down (" + formatDuration(inc.detection) + " after the symptom)"});
        }
        const Checkpoint* load = checkpointBefore(run.checkpoints, CheckpointKind::Load, d.end, true);
        const bool loaded = load && load->end == d.end && load->begin >= d.restarted;
        const bool overtaken = di + 1 < run.downtimes.size() && run.downtimes[di + 1].begin <= d.end;
        if (loaded) {
            inc.chain.push_back({d.restarted, std::string(inc.gpus.empty() || d.planned ? "job relaunched" : "job relaunched with the failed hardware replaced") +
                                                  "; loading the checkpoint of step " + std::to_string(load->step) +
                                                  (load->bytes > 0 ? " (" + formatBytes(load->bytes) + ")" : "")});
            inc.chain.push_back({d.end, "training resumed from step " + std::to_string(load->step)});
            inc.resumedFromStep = load->step;
            inc.end = d.end;
        } else if (overtaken) {
            inc.chain.push_back({d.end, "recovery interrupted by the next failure"});
        } else if (d.end < run.info.duration) {
            inc.chain.push_back({d.restarted, "job relaunched"});
            inc.chain.push_back({d.end, "training resumed"});
            inc.end = d.end;
        }
        if (inc.end) {
            inc.timeToRecover = *inc.end - inc.begin;
            // A synchronous job idles all its GPUs: the job's when the files say, else the cluster's.
            const std::int32_t jobGpus = d.job >= 0 ? run.jobs[static_cast<std::size_t>(d.job)].gpus : 0;
            const double gpus = static_cast<double>(jobGpus > 0 ? static_cast<std::size_t>(jobGpus) : run.topology.gpus.size());
            inc.gpuHoursLost = gpus * static_cast<double>(inc.timeToRecover + inc.lostWork) / static_cast<double>(kHour);
        }
        out.push_back(std::move(inc));
    }
    // Failures that stopped no job we know of (e.g. a kernel log without the job's record).
    for (std::size_t fi = 0; fi < run.failures.size(); ++fi) {
        if (failureUsed[fi]) continue;
        const Failure& f = run.failures[fi];
        Incident inc;
        inc.cause = f.cause;
        inc.planned = f.cause == RootCause::PlannedMaintenance;  // the scheduler's own stop: a time limit, a preemption
        inc.failure = static_cast<int>(fi);
        inc.begin = f.time;
        inc.xid = f.xid;
        inc.gpus = f.gpus;
        inc.reportingRanks = f.ranks;
        inc.suspectRanks = f.suspectRanks;
        inc.suspectReason = suspectReasonOf(f);
        inc.hardware = describeHardware(run.topology, f);
        inc.chain.push_back({f.time, "symptom: " + f.detail});
        out.push_back(std::move(inc));
    }
    std::stable_sort(out.begin(), out.end(), [](const Incident& a, const Incident& b) { return a.begin < b.begin; });
    const bool lostWorkKnown = lostWorkEvidence(run).known;
    for (std::size_t i = 0; i < out.size(); ++i) {
        Incident& inc = out[i];
        inc.id = static_cast<int>(i) + 1;
        inc.lostWorkKnown = lostWorkKnown;
        std::sort(inc.chain.begin(), inc.chain.end(), [](const IncidentEvent& a, const IncidentEvent& b) { return a.time < b.time; });
        const Failure* failure = inc.failure >= 0 && static_cast<std::size_t>(inc.failure) < run.failures.size()
                                     ? &run.failures[static_cast<std::size_t>(inc.failure)]
                                     : nullptr;
        inc.causeLabel = incidentCauseLabel(inc.cause, failure);
        inc.headline = inc.causeLabel + (inc.xid ? " (Xid " + std::to_string(inc.xid) + ")" : "") +
                       (inc.hardware.empty() ? "" : " on " + inc.hardware) +
                       (inc.end ? ": down " + formatDuration(inc.timeToRecover) : "") +
                       (inc.lostWorkKnown && inc.lostWork > 0 ? ", " + formatDuration(inc.lostWork) + " of work lost" : "");
    }
    return out;
}

}  // namespace faultline
