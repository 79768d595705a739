#pragma once
// The figures a run is first judged by, as `faultline-cli summary` prints them and the
// app's summary panel shows them.
#include "analysis/figure_evidence.h"
#include "fabric_outline.h"
#include "goodput.h"
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

struct CauseCount {
    RootCause cause;
    int count = 0;
    double percent = 0;  // of the unexpected interruptions
};

// Where interruptions cost time: the unexpected ones split by phase, plus lost work
// (training redone after restarting from the checkpoint) and planned maintenance.
struct DowntimeSplit {
    Nanos detection = 0;
    Nanos restart = 0;
    Nanos reload = 0;
    Nanos lostWork = 0;
    Nanos planned = 0;
    Nanos total() const { return detection + restart + reload + lostWork + planned; }
};

struct RunSummary {
    std::string name;
    std::int64_t startEpochNs = 0;
    // No event of the run is dated by its own line (an undated log placed at its file's last
    // write): the start is where the import put it, not a time the evidence gives.
    bool startInferred = false;
    std::size_t gpus = 0, hosts = 0, racks = 0, switches = 0;
    // GPUs of hosts no file numbers the GPUs of (a log named the host alone), and those hosts:
    // their count is assumed, and said so.
    std::size_t assumedGpus = 0, assumedHosts = 0;
    FabricOutline fabric;  // its kind, switches per tier, rails
    Nanos duration = 0;
    JobShape shape;  // how the job split its ranks, where its logs said
    std::size_t untracedGpus = 0;  // GPUs no trace covers where traces cover others: no data
    int planned = 0;
    int unexpected = 0;
    int withoutDowntime = 0;  // unexpected interruptions with no downtime in the files
    std::vector<CauseCount> causes;  // most frequent first; ties in the Llama 3 table's order
    // Effective training time ratio: the share of wall time spent on training that was kept
    // (not down, not redone after a restart, not blocked saving checkpoints). From the
    // goodput ledger, as is goodput (which also takes out straggler slowdown).
    double ettr = 0;
    double goodput = 0;
    // Whether ETTR and goodput are stated: the run says how its time was spent and holds the
    // evidence figureEvidence asks for (analysis/figure_evidence.h).
    bool ettrKnown = false;
    DowntimeSplit downtime;
    Nanos mtbf = 0;  // mean time between unexpected interruptions; 0 when there were none
    int jobsInRun = 0;    // scheduler jobs (runs of them) that trained an imported run; 0 for a simulated one
    int requeues = 0;     // of those, runs of a job Slurm requeued
    int checkpoints = 0;  // checkpoint saves
    Nanos meanCheckpointSave = 0;
    Nanos checkpointSaveTotal = 0;
    // Training time between one save's end and the next save's start, averaged over the
    // saves no downtime separates; 0 when the run has fewer than two such saves.
    Nanos checkpointInterval = 0;
    // The interval that minimises lost work plus save overhead for this run's MTBF and mean
    // save (Young/Daly: sqrt(2 x save x MTBF)); 0 when the run has no failures or no saves.
    Nanos optimalCheckpointInterval = 0;
    GoodputLedger ledger;  // where every nanosecond went, overall and per day
    // Every figure's verdict under the one rule; a figure that is not known is shown nowhere.
    EvidenceBasis basis;
    std::array<FigureEvidence, kSummaryFigures.size()> evidence{};
    const FigureEvidence& evidenceFor(SummaryFigure f) const { return evidence[static_cast<std::size_t>(f)]; }
    bool known(SummaryFigure f) const { return evidenceFor(f).known; }
};

RunSummary summarize(const Run& run);
// `value` where the evidence supports the figure, else "not enough of the run to say": for
// tiles and tables, with unknownFigureNotes said beside them.
std::string figureOrUnknown(const RunSummary& summary, SummaryFigure figure, const std::string& value);
// One line per figure the evidence cannot support: "Mean time between failures: not enough of
// the run to say: needs ... (the files hold ...)". Empty when every figure is known.
std::vector<std::string> unknownFigureNotes(const RunSummary& summary);
// What ETTR leaves out, said beside it wherever it is shown: "" or "not counting 1
// interruption whose downtime the files do not show".
std::string ettrCaveat(const RunSummary& summary);
// "2 of 128; no data on the other 126 (whether they kept pace is unknown)", for runs whose
// traces cover some GPUs only.
std::string untracedText(const RunSummary& summary);
// Young's first-order optimum, which Daly showed holds while the save is short next to the MTBF.
Nanos youngDalyInterval(Nanos meanSave, Nanos mtbf);
nlohmann::json summaryToJson(const RunSummary& summary);
std::string summaryToText(const RunSummary& summary);

}  // namespace faultline
