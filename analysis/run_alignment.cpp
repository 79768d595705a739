#include "run_alignment.h"

#include <algorithm>

namespace faultline {

namespace {

// Steps repeat after a restart (training resumes from the checkpoint's step), so "the first
// time a run reached step n" searches the running maximum, which never goes back.
std::vector<std::int64_t> highestSoFar(const Run& run) {
    std::vector<std::int64_t> out;
    out.reserve(run.steps.size());
    std::int64_t highest = 0;
    for (const Step& s : run.steps) out.push_back(highest = std::max(highest, s.step));
    return out;
}

Nanos clampTo(const Run& run, Nanos t) { return std::clamp<Nanos>(t, 0, std::max<Nanos>(0, run.info.duration)); }

}  // namespace

RunAlignment::RunAlignment(const Run& a, const Run& b) : m_a(&a), m_b(&b), m_highestA(highestSoFar(a)), m_highestB(highestSoFar(b)) {}

void RunAlignment::alignByIncident(Nanos inA, Nanos inB) {
    m_mode = AlignmentMode::Incident;
    m_offset = inB - inA;
}

Nanos RunAlignment::clockBegin() const { return m_mode == AlignmentMode::Incident ? std::min<Nanos>(0, -m_offset) : 0; }

Nanos RunAlignment::clockEnd() const {
    switch (m_mode) {
        case AlignmentMode::Time: return std::max(m_a->info.duration, m_b->info.duration);
        case AlignmentMode::Step: return m_a->info.duration;
        case AlignmentMode::Incident: return std::max(m_a->info.duration, m_b->info.duration - m_offset);
    }
    return m_a->info.duration;
}

Nanos RunAlignment::timeInA(Nanos clock) const { return clampTo(*m_a, clock); }

Nanos RunAlignment::timeInB(Nanos clock) const {
    switch (m_mode) {
        case AlignmentMode::Time: return clampTo(*m_b, clock);
        case AlignmentMode::Incident: return clampTo(*m_b, clock + m_offset);
        case AlignmentMode::Step: {
            const std::int64_t step = stepAt(*m_a, clampTo(*m_a, clock));
            return step <= 0 ? 0 : clampTo(*m_b, firstTimeAtStep(*m_b, m_highestB, step));
        }
    }
    return clampTo(*m_b, clock);
}

Nanos RunAlignment::clockForB(Nanos t) const {
    switch (m_mode) {
        case AlignmentMode::Time: return t;
        case AlignmentMode::Incident: return t - m_offset;
        case AlignmentMode::Step: {
            const std::int64_t step = stepAt(*m_b, t);
            return step <= 0 ? 0 : firstTimeAtStep(*m_a, m_highestA, step);
        }
    }
    return t;
}

std::int64_t RunAlignment::stepAt(const Run& run, Nanos t) {
    const auto it = std::upper_bound(run.steps.begin(), run.steps.end(), t, [](Nanos x, const Step& s) { return x < s.time; });
    return it == run.steps.begin() ? 0 : std::prev(it)->step;
}

Nanos RunAlignment::firstTimeAtStep(const Run& run, const std::vector<std::int64_t>& highest, std::int64_t step) {
    const auto it = std::lower_bound(highest.begin(), highest.end(), step);
    if (it == highest.end()) return run.info.duration;
    return run.steps[static_cast<std::size_t>(it - highest.begin())].time;
}

}  // namespace faultline
