#include "run_comparison.h"

#include "incidents.h"
#include "model/format.h"
#include "straggler_analysis.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

namespace faultline {

namespace {

using Unit = KpiRow::Unit;
using Better = KpiRow::Better;

std::optional<double> seconds(Nanos n, bool known = true) {
    return known ? std::optional<double>(toSeconds(n)) : std::nullopt;
}

double perKiloGpuDay(int count, double gpuDayCount) { return gpuDayCount > 0 ? 1000.0 * count / gpuDayCount : 0.0; }

nlohmann::json orNull(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

std::optional<double> ratio(Nanos b, Nanos a) {
    if (a <= 0) return std::nullopt;
    return static_cast<double>(b) / static_cast<double>(a);
}

// Collectives last microseconds to seconds: say which.
std::string shortDuration(Nanos d) {
    char buf[32];
    if (d < kMillisecond) std::snprintf(buf, sizeof buf, "%.1f us", static_cast<double>(d) / kMicrosecond);
    else if (d < kSecond) std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(d) / kMillisecond);
    else return formatDuration(d);
    return buf;
}

}  // namespace

std::string rateCell(bool known, double rate) {
    if (!known) return kNotEnoughToSay;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", rate);
    return buf;
}

StepTimeStats stepTimeStats(const Run& run) {
    StepTimeStats s;
    if (run.steps.empty()) return s;
    std::vector<Nanos> d;
    d.reserve(run.steps.size());
    for (const Step& step : run.steps) d.push_back(step.duration);
    std::sort(d.begin(), d.end());
    const std::size_t n = d.size();
    long double total = 0;
    for (Nanos x : d) total += static_cast<long double>(x);
    s.count = static_cast<std::int64_t>(n);
    s.mean = static_cast<Nanos>(std::llround(static_cast<double>(total / static_cast<long double>(n))));
    s.median = n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    // Nearest rank: the smallest step at least 95% of steps are no longer than.
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
    s.p95 = d[std::max<std::size_t>(rank, 1) - 1];
    return s;
}

double gpuDays(const RunSummary& s) { return static_cast<double>(s.gpus) * static_cast<double>(s.duration) / static_cast<double>(kDay); }

CollectiveComparison compareCollectives(const Run& a, const Run& b) {
    CollectiveComparison out;
    if (a.collectives.empty() || b.collectives.empty()) return out;
    out.both = true;
    struct Sum {
        long double total = 0;
        std::int64_t calls = 0;
    };
    auto sums = [](const Run& run) {
        std::map<std::string, Sum> byOp;
        for (const CollectiveRecord& r : run.collectives) {
            const std::string& op = r.op >= 0 && static_cast<std::size_t>(r.op) < run.collectiveOps.size()
                                        ? run.collectiveOps[static_cast<std::size_t>(r.op)]
                                        : std::string("?");
            Sum& s = byOp[op];
            s.total += static_cast<long double>(r.exit - r.enter);
            ++s.calls;
        }
        return byOp;
    };
    const auto sa = sums(a), sb = sums(b);
    std::map<std::string, CollectiveKindComparison> kinds;
    auto mean = [](const Sum& s) { return s.calls > 0 ? static_cast<Nanos>(s.total / static_cast<long double>(s.calls)) : 0; };
    for (const auto& [op, s] : sa) kinds[op] = {op, mean(s), 0, s.calls, 0};
    for (const auto& [op, s] : sb) {
        CollectiveKindComparison& k = kinds[op];
        k.op = op;
        k.meanB = mean(s);
        k.callsB = s.calls;
    }
    for (auto& [op, k] : kinds) out.kinds.push_back(k);
    auto late = [](const Run& run) {
        int n = 0;
        for (const RankStragglerScore& r : analyzeStragglers(run).ranks) n += r.late > 0 ? 1 : 0;
        return n;
    };
    out.lateRanksA = late(a);
    out.lateRanksB = late(b);
    return out;
}

RunComparison compareRuns(const Run& a, const Run& b) {
    RunComparison c;
    c.collectives = compareCollectives(a, b);
    c.a = summarize(a);
    c.b = summarize(b);
    c.stepsA = stepTimeStats(a);
    c.stepsB = stepTimeStats(b);
    std::array<int, kRootCauseCount> countA{}, countB{};
    for (const CauseCount& x : c.a.causes) countA[static_cast<std::size_t>(x.cause)] = x.count;
    for (const CauseCount& x : c.b.causes) countB[static_cast<std::size_t>(x.cause)] = x.count;
    const double daysA = gpuDays(c.a), daysB = gpuDays(c.b);
    for (int i = 0; i < kRootCauseCount; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (countA[k] == 0 && countB[k] == 0) continue;
        c.causes.push_back({static_cast<RootCause>(i), countA[k], countB[k], perKiloGpuDay(countA[k], daysA), perKiloGpuDay(countB[k], daysB),
                            rateEvidence(static_cast<std::int64_t>(c.a.gpus), c.a.duration).known,
                            rateEvidence(static_cast<std::int64_t>(c.b.gpus), c.b.duration).known});
    }
    std::stable_sort(c.causes.begin(), c.causes.end(),
                     [](const CauseComparison& x, const CauseComparison& y) { return x.a + x.b > y.a + y.b; });
    c.verdict = judgeComparison(a, c.a, b, c.b);
    return c;
}

std::vector<TimePoint> cumulativeEttr(const Run& run, int points) {
    std::vector<TimePoint> out;
    const Nanos duration = run.info.duration;
    if (duration <= 0 || points <= 0) return out;
    const GoodputLedger ledger = computeGoodput(run, std::max<Nanos>(kSecond, (duration + points - 1) / points));
    Nanos kept = 0;
    for (const GoodputPeriod& p : ledger.days) {
        kept += p.productive + p.badput.stragglerSlowdown;
        out.push_back({p.end, static_cast<double>(kept) / static_cast<double>(std::max<Nanos>(1, p.end))});
    }
    return out;
}

std::vector<TimePoint> stepTimeSeries(const Run& run, int buckets) {
    std::vector<TimePoint> out;
    const Nanos duration = run.info.duration;
    if (duration <= 0 || buckets <= 0 || run.steps.empty()) return out;
    const Nanos width = std::max<Nanos>(1, (duration + buckets - 1) / buckets);
    std::vector<double> sum(static_cast<std::size_t>(buckets), 0.0);
    std::vector<int> count(static_cast<std::size_t>(buckets), 0);
    for (const Step& s : run.steps) {
        const auto b = static_cast<std::size_t>(std::clamp<Nanos>(s.time / width, 0, buckets - 1));
        sum[b] += toSeconds(s.duration);
        ++count[b];
    }
    for (std::size_t b = 0; b < sum.size(); ++b)
        if (count[b] > 0) out.push_back({static_cast<Nanos>(b) * width + width / 2, sum[b] / count[b]});
    return out;
}

std::optional<double> KpiRow::delta() const {
    if (!a || !b) return std::nullopt;
    return *b - *a;
}

std::optional<double> KpiRow::relativeDelta() const {
    if (!a || !b || *a == 0) return std::nullopt;
    return (*b - *a) / std::abs(*a);
}

int KpiRow::verdict() const {
    const auto d = delta();
    if (!d || better == Better::Neither || !comparable) return 0;
    // Differences under 1% of the figure are within a run's own noise (a what-if of another
    // seed moves every figure that much): neither better nor worse.
    const double scale = std::max({std::abs(*a), std::abs(*b), 1e-12});
    if (std::abs(*d) < kEvenShare * scale) return 0;
    const bool up = *d > 0;
    return (up == (better == Better::Higher)) ? 1 : -1;
}

std::vector<KpiRow> RunComparison::rows() const {
    auto straggler = [](const RunSummary& s) -> std::optional<double> {
        if (s.duration <= 0) return std::nullopt;
        return static_cast<double>(s.ledger.whole.badput.stragglerSlowdown) / static_cast<double>(s.duration);
    };
    auto step = [](const StepTimeStats& st, Nanos v) { return seconds(v, st.count > 0); };
    const DowntimeSplit& da = a.downtime;
    const DowntimeSplit& db = b.downtime;
    const double daysA = gpuDays(a), daysB = gpuDays(b);
    // A summary figure's row, valued only where that run holds its evidence (the one rule).
    auto figure = [this](KpiRow row, SummaryFigure f) {
        row.knownA = a.known(f), row.knownB = b.known(f);
        if (!row.knownA) row.a.reset();
        if (!row.knownB) row.b.reset();
        return row;
    };
    // Rates, and counts set side by side, need GPU-days on both sides (rateEvidence).
    const bool rateA = rateEvidence(static_cast<std::int64_t>(a.gpus), a.duration).known;
    const bool rateB = rateEvidence(static_cast<std::int64_t>(b.gpus), b.duration).known;
    auto rate = [rateA, rateB](KpiRow row) {
        row.knownA = rateA, row.knownB = rateB;
        if (!rateA) row.a.reset();
        if (!rateB) row.b.reset();
        return row;
    };
    auto count = [rateA, rateB](KpiRow row) {
        row.comparable = rateA && rateB;
        return row;
    };
    return {
        figure({"ETTR", Unit::Fraction, Better::Higher, a.ettr, b.ettr}, SummaryFigure::Ettr),
        figure({"Goodput", Unit::Fraction, Better::Higher, a.goodput, b.goodput}, SummaryFigure::Goodput),
        count({"Unexpected interruptions", Unit::Count, Better::Lower, a.unexpected, b.unexpected}),
        rate({"Unexpected per 1,000 GPU-days", Unit::Rate, Better::Lower, perKiloGpuDay(a.unexpected, daysA), perKiloGpuDay(b.unexpected, daysB)}),
        count({"Planned interruptions", Unit::Count, Better::Lower, a.planned, b.planned}),
        figure({"MTBF", Unit::Duration, Better::Higher, seconds(a.mtbf, a.unexpected > 0), seconds(b.mtbf, b.unexpected > 0)}, SummaryFigure::Mtbf),
        figure({"Downtime: detection", Unit::Duration, Better::Lower, seconds(da.detection), seconds(db.detection)}, SummaryFigure::DowntimeShares),
        figure({"Downtime: restart", Unit::Duration, Better::Lower, seconds(da.restart), seconds(db.restart)}, SummaryFigure::DowntimeShares),
        figure({"Downtime: checkpoint reload", Unit::Duration, Better::Lower, seconds(da.reload), seconds(db.reload)}, SummaryFigure::DowntimeShares),
        figure({"Downtime: lost work", Unit::Duration, Better::Lower, seconds(da.lostWork), seconds(db.lostWork)}, SummaryFigure::DowntimeShares),
        figure({"Downtime: planned", Unit::Duration, Better::Lower, seconds(da.planned), seconds(db.planned)}, SummaryFigure::DowntimeShares),
        {"Checkpoints saved", Unit::Count, Better::Neither, a.checkpoints, b.checkpoints},
        figure({"Checkpoint interval (mean)", Unit::Duration, Better::Neither, seconds(a.checkpointInterval, a.checkpointInterval > 0),
                seconds(b.checkpointInterval, b.checkpointInterval > 0)},
               SummaryFigure::CheckpointInterval),
        {"Checkpoint save (mean)", Unit::Duration, Better::Lower, seconds(a.meanCheckpointSave, a.checkpoints > 0),
         seconds(b.meanCheckpointSave, b.checkpoints > 0)},
        {"Checkpoint save overhead", Unit::Duration, Better::Lower, seconds(a.ledger.whole.badput.checkpointSave),
         seconds(b.ledger.whole.badput.checkpointSave)},
        {"Step time (mean)", Unit::Duration, Better::Lower, step(stepsA, stepsA.mean), step(stepsB, stepsB.mean)},
        {"Step time (median)", Unit::Duration, Better::Lower, step(stepsA, stepsA.median), step(stepsB, stepsB.median)},
        {"Step time (p95)", Unit::Duration, Better::Lower, step(stepsA, stepsA.p95), step(stepsB, stepsB.p95)},
        figure({"Straggler slowdown (of run time)", Unit::Fraction, Better::Lower, straggler(a), straggler(b)}, SummaryFigure::Goodput),
    };
}

std::string formatKpiValue(const KpiRow& row, double value, bool signedValue) {
    // Below what the cell shows, a difference is none: no "-0 ms".
    const double shown = row.unit == Unit::Duration ? 0.0005 : row.unit == Unit::Fraction ? 0.00005 : 0.0005;
    if (signedValue && std::abs(value) < shown) value = 0;
    const std::string sign = signedValue ? (value > 0 ? "+" : value < 0 ? "-" : "") : "";
    const double v = signedValue ? std::abs(value) : value;
    char buf[64];
    switch (row.unit) {
        case Unit::Fraction:
            // Differences of fractions read as percentage points.
            std::snprintf(buf, sizeof buf, signedValue ? "%.2f pp" : "%.2f%%", 100.0 * v);
            return sign + buf;
        case Unit::Duration:
            if (v < 1.0 && v > 0) {
                std::snprintf(buf, sizeof buf, "%.0f ms", v * 1000.0);
                return sign + buf;
            }
            if (v < 60.0) {
                std::snprintf(buf, sizeof buf, "%.2f s", v);
                return sign + buf;
            }
            return sign + formatDuration(fromSeconds(v));
        case Unit::Rate: std::snprintf(buf, sizeof buf, "%.3f", v); return sign + buf;
        case Unit::Count: break;
    }
    return sign + formatCount(std::llround(v));
}

nlohmann::json comparisonToJson(const RunComparison& c) {
    const RunSummary& a = c.a;
    const RunSummary& b = c.b;
    const bool ettrKnown = a.ettrKnown && b.ettrKnown;
    // A difference only where both runs hold the figure's evidence (analysis/figure_evidence.h).
    auto bothKnown = [&a, &b](SummaryFigure f) { return a.known(f) && b.known(f); };
    nlohmann::json causes = nlohmann::json::array();
    for (const CauseComparison& x : c.causes) causes.push_back({{"cause", rootCauseKey(x.cause)}, {"a", x.a}, {"b", x.b}});
    auto stepSeconds = [](const StepTimeStats& s, Nanos v) { return s.count > 0 ? nlohmann::json(toSeconds(v)) : nlohmann::json(); };
    const bool bothSteps = c.stepsA.count > 0 && c.stepsB.count > 0;
    return {
        {"a", summaryToJson(a)},
        {"b", summaryToJson(b)},
        {"delta",
         {{"ettr", ettrKnown ? nlohmann::json(b.ettr - a.ettr) : nlohmann::json()},
          {"goodput", ettrKnown ? nlohmann::json(b.goodput - a.goodput) : nlohmann::json()},
          {"mtbf_s", bothKnown(SummaryFigure::Mtbf) ? nlohmann::json(toSeconds(b.mtbf) - toSeconds(a.mtbf)) : nlohmann::json()},
          {"interruptions", {{"planned", b.planned - a.planned}, {"unexpected", b.unexpected - a.unexpected}}},
          {"downtime_s",
           bothKnown(SummaryFigure::DowntimeShares)
               ? nlohmann::json{{"detection", toSeconds(b.downtime.detection - a.downtime.detection)},
                                {"restart", toSeconds(b.downtime.restart - a.downtime.restart)},
                                {"reload", toSeconds(b.downtime.reload - a.downtime.reload)},
                                {"lost_work", toSeconds(b.downtime.lostWork - a.downtime.lostWork)},
                                {"planned", toSeconds(b.downtime.planned - a.downtime.planned)}}
               : nlohmann::json()}}},
        {"step_time_s",
         {{"mean_a", stepSeconds(c.stepsA, c.stepsA.mean)},
          {"mean_b", stepSeconds(c.stepsB, c.stepsB.mean)},
          {"median_a", stepSeconds(c.stepsA, c.stepsA.median)},
          {"median_b", stepSeconds(c.stepsB, c.stepsB.median)},
          {"ratio_mean", bothSteps ? orNull(ratio(c.stepsB.mean, c.stepsA.mean)) : nlohmann::json()},
          {"ratio_median", bothSteps ? orNull(ratio(c.stepsB.median, c.stepsA.median)) : nlohmann::json()}}},
        {"causes", causes},
        {"verdict", verdictToJson(c.verdict)},
    };
}

std::vector<KpiTableRow> kpiTable(const RunComparison& c) {
    std::vector<KpiTableRow> out;
    for (const KpiRow& row : c.rows()) {
        auto cell = [&row](const std::optional<double>& v, bool sign) { return v ? formatKpiValue(row, *v, sign) : std::string("-"); };
        auto side = [&cell](const std::optional<double>& v, bool known) { return known ? cell(v, false) : std::string(kNotEnoughToSay); };
        std::string change = "-";
        // A change of a percentage is its difference in points, already in the delta column.
        if (const auto r = row.unit == Unit::Fraction || !row.comparable ? std::nullopt : row.relativeDelta()) {
            char pct[32];
            // A change that rounds to nothing has no sign ("-0.0%" reads as a loss).
            std::snprintf(pct, sizeof pct, "%+.1f%%", std::abs(100.0 * *r) < 0.05 ? 0.0 : 100.0 * *r);
            change = pct;
        }
        const int verdict = row.verdict();
        out.push_back({row.label, side(row.a, row.knownA), side(row.b, row.knownB), cell(row.delta(), true), change,
                       verdict > 0 ? "better" : verdict < 0 ? "worse" : ""});
    }
    return out;
}

std::string comparisonToText(const RunComparison& c) {
    std::string out;
    char buf[320];
    std::snprintf(buf, sizeof buf, "A  %s (%s GPUs, %s)\nB  %s (%s GPUs, %s)\n\n", c.a.name.c_str(),
                  formatCount(static_cast<std::int64_t>(c.a.gpus)).c_str(), formatDuration(c.a.duration).c_str(), c.b.name.c_str(),
                  formatCount(static_cast<std::int64_t>(c.b.gpus)).c_str(), formatDuration(c.b.duration).c_str());
    out += buf;
    out += c.verdict.headline + "\n\n";
    // The same loss by cause group, the network first: the answer's breakdown.
    const ComparisonVerdict& v = c.verdict;
    std::snprintf(buf, sizeof buf, "%-34s %16s %16s %20s\n", "GPU-hours lost, by cause", v.nameA.c_str(), v.nameB.c_str(),
                  (v.nameB + " - " + v.nameA).c_str());
    out += buf;
    for (const LostGpuHoursPart& g : v.groups) {
        std::snprintf(buf, sizeof buf, "  %-32s %16s %16s %20s\n", g.part.c_str(), lostGpuHoursCell(v.knownA, g.a).c_str(),
                      lostGpuHoursCell(v.knownB, g.b).c_str(), lostGpuHoursDelta(v, g.delta()).c_str());
        out += buf;
    }
    out += "\n";
    std::snprintf(buf, sizeof buf, "%-34s %16s %16s %16s %10s\n", "", "A", "B", "B - A", "change");
    out += buf;
    for (const KpiTableRow& row : kpiTable(c)) {
        std::snprintf(buf, sizeof buf, "%-34s %16s %16s %16s %10s %s\n", row.label.c_str(), row.a.c_str(), row.b.c_str(), row.delta.c_str(),
                      row.change.c_str(), row.verdict.c_str());
        out += buf;
    }
    if (c.collectives.both) {
        out += "\nCollectives (mean time a rank spends in each kind)\n";
        std::snprintf(buf, sizeof buf, "  %-32s %12s %12s\n", "", "A", "B");
        out += buf;
        for (const CollectiveKindComparison& k : c.collectives.kinds) {
            std::snprintf(buf, sizeof buf, "  %-32s %12s %12s\n", k.op.c_str(), k.callsA ? shortDuration(k.meanA).c_str() : "-",
                          k.callsB ? shortDuration(k.meanB).c_str() : "-");
            out += buf;
        }
        std::snprintf(buf, sizeof buf, "  %-32s %12d %12d\n", "Ranks that arrived late", c.collectives.lateRanksA, c.collectives.lateRanksB);
        out += buf;
    }
    if (!c.causes.empty()) {
        out += "\nRoot causes of unexpected interruptions (count, per 1,000 GPU-days)\n";
        std::snprintf(buf, sizeof buf, "  %-32s %6s %9s %6s %9s\n", "", "A", "rate", "B", "rate");
        out += buf;
        for (const CauseComparison& x : c.causes) {
            std::snprintf(buf, sizeof buf, "  %-32s %6d %9s %6d %9s\n", std::string(rootCauseLabel(x.cause)).c_str(), x.a,
                          rateCell(x.rateKnownA, x.ratePerKiloGpuDayA).c_str(), x.b, rateCell(x.rateKnownB, x.ratePerKiloGpuDayB).c_str());
            out += buf;
        }
        // What a rate needs, once, where a side lacks it.
        for (const auto& [name, s] : {std::pair<const char*, const RunSummary*>{"A", &c.a}, {"B", &c.b}})
            if (const FigureEvidence e = rateEvidence(static_cast<std::int64_t>(s->gpus), s->duration); !e.known) out += std::string("  rate ") + name + ": " + unknownFigureText(e) + "\n";
    }
    return out;
}

}  // namespace faultline
