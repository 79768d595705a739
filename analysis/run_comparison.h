#pragma once
// Two runs side by side: the figures of each (from summarize, so they are the figures
// `summary` prints), their differences, step-time statistics and root-cause rates per
// 1,000 GPU-days so runs of different size compare fairly. `faultline-cli compare` prints
// it; the app's comparison window shows the same rows.
#include "comparison_verdict.h"
#include "summary.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct StepTimeStats {
    std::int64_t count = 0;  // 0: the run has no steps and the figures below are unknown
    Nanos mean = 0;
    Nanos median = 0;
    Nanos p95 = 0;
};
StepTimeStats stepTimeStats(const Run& run);

struct CauseComparison {
    RootCause cause;
    int a = 0, b = 0;
    double ratePerKiloGpuDayA = 0, ratePerKiloGpuDayB = 0;  // interruptions per 1,000 GPU-days
    bool rateKnownA = true, rateKnownB = true;              // each run's rateEvidence (figure_evidence.h)
};
// A rate as every table shows it: "0.125", or "not enough of the run to say".
std::string rateCell(bool known, double rate);

// One line of the KPI table. `better` says which way is good, for colouring.
struct KpiRow {
    enum class Unit { Fraction, Duration, Count, Rate };
    enum class Better { Higher, Lower, Neither };
    std::string label;
    Unit unit = Unit::Count;
    Better better = Better::Neither;
    std::optional<double> a, b;  // durations in seconds; nullopt when the run does not say
    // Where the row is a summary figure: whether each run holds the evidence it needs
    // (analysis/figure_evidence.h); a side without it is "not enough of the run to say".
    bool knownA = true, knownB = true;
    // Counts of runs whose spans cannot be compared (a side without rateEvidence): each shown,
    // their difference too, but no change in percent and no better or worse.
    bool comparable = true;
    std::optional<double> delta() const;          // b - a
    std::optional<double> relativeDelta() const;  // (b - a) / |a|; nullopt when a is 0
    // +1 when B is better, -1 when worse, 0 when equal, unknown or neither way is good.
    int verdict() const;
};

// Where both runs hold collective traces: the mean time a rank spends in each kind of
// collective, and how many ranks arrived late (analysis/straggler_analysis.h).
struct CollectiveKindComparison {
    std::string op;
    Nanos meanA = 0, meanB = 0;  // 0 where that run has none of this kind
    std::int64_t callsA = 0, callsB = 0;
};
struct CollectiveComparison {
    bool both = false;  // false: a run has no trace, and the rest is empty
    std::vector<CollectiveKindComparison> kinds;
    int lateRanksA = 0, lateRanksB = 0;
};
CollectiveComparison compareCollectives(const Run& a, const Run& b);

struct RunComparison {
    RunSummary a, b;
    StepTimeStats stepsA, stepsB;
    CollectiveComparison collectives;
    std::vector<CauseComparison> causes;  // every cause either run saw, most frequent (A+B) first
    ComparisonVerdict verdict;            // which run lost fewer GPU-hours, and why
    std::vector<KpiRow> rows() const;
};

RunComparison compareRuns(const Run& a, const Run& b);

// The series the comparison's charts overlay.
struct TimePoint {
    Nanos t = 0;
    double value = 0;
};
// ETTR from the run's start to each of `points` instants.
std::vector<TimePoint> cumulativeEttr(const Run& run, int points = 200);
// The mean step time (seconds) in each of `buckets` stretches of the run that had steps.
std::vector<TimePoint> stepTimeSeries(const Run& run, int buckets = 600);
double gpuDays(const RunSummary& s);

// The KPI table as the CLI, the app and the comparison report show it: label, A, B, B - A,
// change (a relative change; blank for percentages, whose difference is in points), and
// "better" / "worse" / "". A figure a side lacks the evidence for is "not enough of the run to
// say" there, with no difference.
struct KpiTableRow {
    std::string label, a, b, delta, change, verdict;
};
std::vector<KpiTableRow> kpiTable(const RunComparison& c);

nlohmann::json comparisonToJson(const RunComparison& c);
std::string comparisonToText(const RunComparison& c);
// "+1.5%" / "-3m 20s" / "+2": a delta as the KPI table and the CLI show it.
std::string formatKpiValue(const KpiRow& row, double value, bool signedValue);

}  // namespace faultline
