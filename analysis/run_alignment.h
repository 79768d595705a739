#pragma once
// How the comparison's one clock maps onto two runs' own times. The clock reads A's time
// (or, aligned by time, the time since each run's start); B follows by the same time since
// start, by the same training step, or at the same distance from a chosen incident in each.
#include "model/run.h"

#include <vector>

namespace faultline {

enum class AlignmentMode { Time, Step, Incident };

class RunAlignment {
public:
    RunAlignment(const Run& a, const Run& b);

    AlignmentMode mode() const { return m_mode; }
    void alignByTime() { m_mode = AlignmentMode::Time; }
    void alignBySteps() { m_mode = AlignmentMode::Step; }
    // Pins the instant `inA` of A to `inB` of B: both incidents meet at one clock instant.
    void alignByIncident(Nanos inA, Nanos inB);
    Nanos incidentOffset() const { return m_offset; }

    // The clock's range: every instant where at least one run has something to show.
    Nanos clockBegin() const;
    Nanos clockEnd() const;
    // Each run's own time at a clock instant, within [0, duration].
    Nanos timeInA(Nanos clock) const;
    Nanos timeInB(Nanos clock) const;
    // The clock instant at which A (or B) reaches its own time `t`: where picking a moment in
    // one run's view puts the clock.
    Nanos clockForA(Nanos t) const { return t; }
    Nanos clockForB(Nanos t) const;

    // The last step a run had completed by `t` (0 before its first); and the first time it
    // completed step `step` (its duration when it never did).
    static std::int64_t stepAt(const Run& run, Nanos t);
    static Nanos firstTimeAtStep(const Run& run, const std::vector<std::int64_t>& highestSoFar, std::int64_t step);

private:
    const Run* m_a;
    const Run* m_b;
    AlignmentMode m_mode = AlignmentMode::Time;
    Nanos m_offset = 0;  // B's time minus A's at the same clock instant, aligned by incident
    std::vector<std::int64_t> m_highestA, m_highestB;  // highest step completed up to each step record
};

}  // namespace faultline
