#include "analysis/opening_instant.h"

#include "analysis/hang_analysis.h"
#include "model/format.h"
#include "model/root_cause.h"
#include "model/time_notes.h"

#include <algorithm>

namespace faultline {

bool isShortEvidence(const Run& run, const std::vector<Incident>& incidents) {
    return run.info.duration < kDay || (incidents.size() <= kFewIncidents && run.steps.empty());
}

std::optional<Nanos> openingInstant(const Run& run, const std::vector<Incident>& incidents) {
    if (incidents.empty() || !isShortEvidence(run, incidents)) return std::nullopt;
    const auto first = std::min_element(incidents.begin(), incidents.end(),
                                        [](const Incident& a, const Incident& b) { return a.begin < b.begin; });
    return std::clamp<Nanos>(first->begin, 0, run.info.duration);
}

Nanos openingTime(const Run& run, const std::vector<Incident>& incidents) { return openingInstant(run, incidents).value_or(0); }

Nanos incidentSnapshotInstant(const Incident& incident, Nanos runDuration) {
    return std::clamp<Nanos>(incident.begin + kSecond, 0, std::max<Nanos>(runDuration, incident.begin));
}

std::string failedText(const Run& run, const Incident& incident) {
    std::string out = incident.causeLabel;
    if (!incident.hardware.empty()) out += " on " + incident.hardware;
    if (incident.failure >= 0 && static_cast<std::size_t>(incident.failure) < run.failures.size()) {
        const std::string detail = withoutTimeNotes(run.failures[static_cast<std::size_t>(incident.failure)].detail);
        if (!detail.empty()) out += ": " + detail;
    }
    return out;
}

namespace {

// The hang a failure stands for (addHangIncident words its detail with the origin's text): the
// summary's headline for it, "Hung: rank 9 never joined ...". "" when it is not a hang's.
std::string hangHeadline(const Run& run, std::int32_t failure) {
    if (!run.hang || failure < 0 || static_cast<std::size_t>(failure) >= run.failures.size()) return {};
    const std::string& detail = run.failures[static_cast<std::size_t>(failure)].detail;
    for (const HangOrigin& origin : run.hang->origins)
        if (const std::string text = hangOriginText(*run.hang, origin); detail.find(text) != std::string::npos) return "Hung: " + text;
    return {};
}

}  // namespace

std::string jobStatusText(const Run& run, const ReplayIndex& replay, Nanos t) {
    const JobStatus status = replay.jobAt(t);
    // A hung job is not "down: stopped by NCCL Watchdog Timeouts": it says what the headline says.
    if (status.phase == JobPhase::Stopped)
        if (std::string hung = hangHeadline(run, status.failure); !hung.empty()) return hung;
    if (status.phase != JobPhase::Training) return describeJob(run, status);
    // The last failure by t that no downtime answers and no step followed: the job is known
    // to have failed there, not to be training (a crash on a log's last lines).
    const Failure* last = nullptr;
    for (const Failure& f : run.failures)
        if (f.time <= t && (!last || f.time >= last->time)) last = &f;
    const auto index = last ? static_cast<std::int32_t>(last - run.failures.data()) : -1;
    const bool answered = std::any_of(run.downtimes.begin(), run.downtimes.end(), [index](const Downtime& d) { return d.failure == index; });
    const auto after = last ? std::upper_bound(run.steps.begin(), run.steps.end(), last->time, [](Nanos time, const Step& s) { return time < s.time; })
                            : run.steps.end();
    const bool trainedSince = after != run.steps.end() && after->time <= t;
    if (!last || answered || trainedSince)
        return run.steps.empty() ? "running (the files hold no training steps)" : describeJob(run, status);
    std::string what = "failed: " + std::string(rootCauseLabel(last->cause));
    if (const std::string where = describeHardware(run.topology, *last); !where.empty()) what += " on " + where;
    if (!last->detail.empty()) what += ": " + last->detail;
    if (!run.steps.empty()) what += " (after step " + std::to_string(status.step) + ")";
    return what;
}

std::string replayTimeText(const Run& run, Nanos t) {
    const Nanos duration = run.info.duration;
    if (duration <= 0) {
        std::vector<std::string> notes;
        for (const Failure& f : run.failures)
            for (std::string& note : timeNotesOf(f.detail))
                if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(std::move(note));
        std::string out = "one instant: " + formatWallTime(run.info.startEpochNs, 0);
        for (std::size_t i = 0; i < notes.size(); ++i) out += (i == 0 ? " (" : ", ") + notes[i];
        return notes.empty() ? out : out + ")";
    }
    if (duration < kSecond) return formatShortDuration(t) + " of " + formatShortDuration(duration);
    return formatDuration(t) + " of " + formatDuration(duration);
}

}  // namespace faultline
