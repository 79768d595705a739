#pragma once
// Where a run opens, and what the replay's status line says, when the evidence is short: a
// console log of one crashed job or the Flight Recorder dumps of a hung one opens at its first
// symptom with the failed hardware red, and says what failed, not "training, step 0".
#include "analysis/incidents.h"
#include "model/replay_state.h"
#include "model/run.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

// "A few" incidents: more than this and the run is a history to replay from its start.
inline constexpr std::size_t kFewIncidents = 3;

// Whether the run's evidence is short: less than a day of it, or a few incidents and no step
// history.
bool isShortEvidence(const Run& run, const std::vector<Incident>& incidents);
// The first incident's instant where the evidence is short and holds one; else unset (the run
// opens at its start).
std::optional<Nanos> openingInstant(const Run& run, const std::vector<Incident>& incidents);
// Where the run opens: the opening instant, else its start. The one answer for the app's window
// and every picture made without one (--screenshot, the panels' snapshots).
Nanos openingTime(const Run& run, const std::vector<Incident>& incidents);
// The instant an incident's picture shows (the report's and the presentation's): just after its
// first symptom (the failed hardware red, the job not yet torn down), never past the run's end,
// so a failure within a second of the end is drawn at the run's last instant, still red.
Nanos incidentSnapshotInstant(const Incident& incident, Nanos runDuration);
// What failed in an incident, in the words the window's headline and `summary` give it:
// "GPU HBM3 Memory on rank 12 (host unknown): CUDA error: uncorrectable ECC error encountered".
std::string failedText(const Run& run, const Incident& incident);
// The job at `t` in the status line's words. A run with no step history says what failed last
// by `t` ("failed: GPU HBM3 Memory on n1-gpu3: CUDA error: ...") or that the files hold no steps,
// never "training, step 0"; a job a Flight Recorder hang stopped says what the summary's headline
// says ("Hung: rank 9 never joined ..."), not "down: stopped by NCCL Watchdog Timeouts".
std::string jobStatusText(const Run& run, const ReplayIndex& replay, Nanos t);
// Where the replay stands, as its time label says it: "3 min of 10 min"; a run under a second
// in the units it spans ("3.25 ms of 18.0 ms", never "0 ms of 0 ms"); and evidence of one
// instant (a one-line crash), which has no span to replay, says that instant with the time's
// notes: "one instant: 2024-06-01 12:00:03 UTC (time inferred)".
std::string replayTimeText(const Run& run, Nanos t);

}  // namespace faultline
