#pragma once
// One rule for every summary figure (ETTR, goodput, MTBF, downtime shares, checkpoint
// interval, the Young/Daly optimum): the least evidence it needs, and below it "not enough of
// the run to say" with what would make it known. The app's tiles, `faultline-cli summary`, the
// reports and the presentation all ask here, so a minute of crash log or 18 ms of Flight
// Recorder dumps never shows "ETTR 1.3%" or "MTBF 9 ms" anywhere.
#include "model/run.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace faultline {

enum class SummaryFigure : std::uint8_t { Ettr, Goodput, Mtbf, DowntimeShares, CheckpointInterval, YoungDaly };
inline constexpr std::array<SummaryFigure, 6> kSummaryFigures = {SummaryFigure::Ettr,           SummaryFigure::Goodput,
                                                                 SummaryFigure::Mtbf,           SummaryFigure::DowntimeShares,
                                                                 SummaryFigure::CheckpointInterval, SummaryFigure::YoungDaly};

// The thresholds, said in the words of `needs` below.
inline constexpr Nanos kShortestAccountedRun = kHour;  // ETTR, goodput, downtime shares
inline constexpr Nanos kShortestMtbfRun = kDay;
inline constexpr int kFewestFailuresForMtbf = 2;

// What a run's evidence holds, as the rule reads it.
struct EvidenceBasis {
    Nanos duration = 0;
    Nanos trainingCovered = 0;  // of the run, the time its training steps or its jobs' spans cover
    bool hasSteps = false;
    bool hasJobSpans = false;
    bool timeAccounted = false;  // steps or downtimes say how the time was spent (the goodput ledger's flag)
    int unexpected = 0;               // unexpected interruptions
    int saves = 0;                    // checkpoint saves
    bool intervalMeasured = false;    // two saves with training and no downtime between them
};

struct FigureEvidence {
    bool known = false;
    std::string needs;    // the least evidence the figure needs, always said
    std::string missing;  // when unknown: what the run holds instead ("the files cover 1 min")
};

inline constexpr const char* kNotEnoughToSay = "not enough of the run to say";

// `unexpected`, `saves`, `intervalMeasured` and `timeAccounted` as the summary counted them.
EvidenceBasis evidenceBasis(const Run& run, int unexpected, int saves, bool intervalMeasured, bool timeAccounted);
FigureEvidence figureEvidence(SummaryFigure figure, const EvidenceBasis& basis);
// Interruptions per 1,000 GPU-days, and how two runs' counts differ: they need the GPUs the files
// name and at least a day of run (the MTBF's span), else a crash log's 25 s reads "0.000 per
// 1,000 GPU-days" or "+1500% worse" beside a two-day run.
FigureEvidence rateEvidence(std::int64_t gpus, Nanos duration);
// An incident's lost work is a downtime figure: whether the run's evidence supports it, for the
// incident list, `faultline-cli incidents` and the exports alike.
FigureEvidence lostWorkEvidence(const Run& run);
std::string_view summaryFigureKey(SummaryFigure figure);    // "ettr", "mtbf", ... (the JSON's keys)
std::string_view summaryFigureLabel(SummaryFigure figure);  // "Effective training time", ...
// What would make it known: "needs at least two unexpected failures over at least a day of run
// (the files hold 1 in 1 min 4 s)".
std::string whatWouldMakeItKnown(const FigureEvidence& evidence);
// One line for text: "not enough of the run to say: needs ... (the files hold ...)".
std::string unknownFigureText(const FigureEvidence& evidence);

}  // namespace faultline
