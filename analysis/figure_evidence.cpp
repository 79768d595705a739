#include "analysis/figure_evidence.h"

#include "model/format.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace faultline {

namespace {

// The run's time under training steps or under the jobs that trained it, each interval
// clipped to the run and overlaps counted once.
Nanos coveredByTraining(const Run& run) {
    std::vector<std::pair<Nanos, Nanos>> spans;
    if (!run.steps.empty()) {
        Nanos first = run.steps.front().time - run.steps.front().duration, last = run.steps.front().time;
        for (const Step& s : run.steps) {
            first = std::min(first, s.time - s.duration);
            last = std::max(last, s.time);
        }
        spans.emplace_back(first, last);
    }
    for (const Job& j : run.jobs)
        if (j.inRun && j.start && j.end) spans.emplace_back(*j.start, *j.end);
    for (auto& [b, e] : spans) {
        b = std::clamp<Nanos>(b, 0, run.info.duration);
        e = std::clamp<Nanos>(e, 0, run.info.duration);
    }
    std::sort(spans.begin(), spans.end());
    Nanos covered = 0, reach = 0;
    for (const auto& [b, e] : spans) {
        const Nanos from = std::max(b, reach);
        if (e > from) covered += e - from;
        reach = std::max(reach, e);
    }
    return covered;
}

std::string training(const EvidenceBasis& b) {
    const bool none = !b.hasSteps && !b.hasJobSpans;
    if (b.duration < kShortestAccountedRun)
        return "a run of " + formatDuration(b.duration) + (none ? " with no training steps or job spans" : "");
    if (none) return "no training steps or job spans in " + formatDuration(b.duration) + " of run";
    return "training steps or job spans covering " + formatDuration(b.trainingCovered) + " of " + formatDuration(b.duration);
}

bool accounted(const EvidenceBasis& b) {
    return b.duration >= kShortestAccountedRun && b.trainingCovered > 0 && 2 * b.trainingCovered >= b.duration;
}

bool mtbfKnown(const EvidenceBasis& b) { return b.unexpected >= kFewestFailuresForMtbf && b.duration >= kShortestMtbfRun; }

std::string failuresHeld(const EvidenceBasis& b) {
    return formatCounted(b.unexpected, "unexpected failure", "unexpected failures") + " in " + formatDuration(b.duration);
}

}  // namespace

EvidenceBasis evidenceBasis(const Run& run, int unexpected, int saves, bool intervalMeasured, bool timeAccounted) {
    EvidenceBasis b;
    b.duration = run.info.duration;
    b.hasSteps = !run.steps.empty();
    b.hasJobSpans = std::any_of(run.jobs.begin(), run.jobs.end(), [](const Job& j) { return j.inRun && j.start && j.end; });
    b.trainingCovered = coveredByTraining(run);
    b.unexpected = unexpected;
    b.saves = saves;
    b.intervalMeasured = intervalMeasured;
    b.timeAccounted = timeAccounted;
    return b;
}

FigureEvidence figureEvidence(SummaryFigure figure, const EvidenceBasis& b) {
    FigureEvidence e;
    switch (figure) {
    case SummaryFigure::Ettr:
    case SummaryFigure::Goodput:
        e.needs = "training steps or job spans covering at least half of a run of an hour or more";
        e.known = accounted(b) && b.timeAccounted;
        e.missing = accounted(b) ? "job spans alone, with no steps or downtimes to say how their time was spent" : training(b);
        break;
    case SummaryFigure::Mtbf:
        e.needs = "at least two unexpected failures over at least a day of run";
        e.known = mtbfKnown(b);
        e.missing = failuresHeld(b);
        break;
    case SummaryFigure::DowntimeShares:
        e.needs = "a run of at least an hour with training steps or a job span";
        e.known = b.duration >= kShortestAccountedRun && b.trainingCovered > 0;
        e.missing = training(b);
        break;
    case SummaryFigure::CheckpointInterval:
        e.needs = "two checkpoint saves with training and no restart between them";
        e.known = b.intervalMeasured;
        e.missing = b.saves == 0 ? "no checkpoint saves" : b.saves == 1 ? "one checkpoint save" : "no two saves without a restart between them";
        break;
    case SummaryFigure::YoungDaly:
        e.needs = "a known MTBF (two unexpected failures over a day) and at least one checkpoint save";
        e.known = mtbfKnown(b) && b.saves > 0;
        e.missing = b.saves == 0 ? failuresHeld(b) + ", no checkpoint saves" : failuresHeld(b);
        break;
    }
    if (e.known) e.missing.clear();
    return e;
}

FigureEvidence rateEvidence(std::int64_t gpus, Nanos duration) {
    FigureEvidence e;
    e.needs = "the GPUs the files name and at least a day of run";
    e.known = gpus > 0 && duration >= kShortestMtbfRun;
    if (!e.known)
        e.missing = gpus <= 0 ? "no GPUs in " + formatDuration(duration) : "a run of " + formatDuration(duration) + " on " + formatCounted(gpus, "GPU", "GPUs");
    return e;
}

FigureEvidence lostWorkEvidence(const Run& run) {
    return figureEvidence(SummaryFigure::DowntimeShares, evidenceBasis(run, 0, 0, false, false));
}

std::string_view summaryFigureKey(SummaryFigure figure) {
    switch (figure) {
    case SummaryFigure::Ettr: return "ettr";
    case SummaryFigure::Goodput: return "goodput";
    case SummaryFigure::Mtbf: return "mtbf";
    case SummaryFigure::DowntimeShares: return "downtime_shares";
    case SummaryFigure::CheckpointInterval: return "checkpoint_interval";
    case SummaryFigure::YoungDaly: return "optimal_checkpoint_interval";
    }
    return "";
}

std::string_view summaryFigureLabel(SummaryFigure figure) {
    switch (figure) {
    case SummaryFigure::Ettr: return "Effective training time";
    case SummaryFigure::Goodput: return "Goodput";
    case SummaryFigure::Mtbf: return "Mean time between failures";
    case SummaryFigure::DowntimeShares: return "Downtime shares";
    case SummaryFigure::CheckpointInterval: return "Checkpoint interval";
    case SummaryFigure::YoungDaly: return "Young/Daly optimal interval";
    }
    return "";
}

std::string whatWouldMakeItKnown(const FigureEvidence& e) {
    return "needs " + e.needs + (e.missing.empty() ? std::string() : " (the files hold " + e.missing + ")");
}

std::string unknownFigureText(const FigureEvidence& e) { return std::string(kNotEnoughToSay) + ": " + whatWouldMakeItKnown(e); }

}  // namespace faultline
