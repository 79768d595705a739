#pragma once
// View > Colour By > Job: every GPU in the colour of the job holding it at an instant, idle
// hardware pale, a failed GPU still in the failure's colour. A job keeps one colour through
// its requeues (the colour follows its id), and neighbouring ids differ in hue and lightness,
// so jobs side by side on a floor tell apart. Reds and yellows are left to failures and flashes.
#include "views/gpu_palette.h"
#include "model/host_jobs.h"

#include <optional>
#include <span>
#include <vector>

namespace faultline {

inline constexpr Rgb kIdleColour{228, 231, 236};

// FabricView::setColourBy's choice of colouring by job (metrics are 0 and up).
inline constexpr std::int32_t kColourByJob = -2;
// What --colour-by names: "job" (any case) for kColourByJob, else a metric (metricNamed).
// Throws Error when the run has no jobs or no such metric.
std::int32_t colourByNamed(const Run& run, const std::string& text);

// The colour a job is drawn in (by its id).
Rgb jobColour(const Job& job);

class JobColouring {
public:
    explicit JobColouring(const Run& run);

    // Colours for instant t and how much each should catch the eye (failed highest, then any
    // job; idle lowest): a rack drawn as one block takes its highest GPU's.
    void colour(Nanos t, std::span<const GpuVisual> states, const StatePalette& palette, std::vector<Rgb>& colours, std::vector<int>& rank);
    // The job holding each GPU at the last colour()'s instant (-1: idle).
    const std::vector<std::int32_t>& jobs() const { return m_gpuJobs; }
    const HostJobs& hostJobs() const { return m_hostJobs; }

private:
    const Run& m_run;
    HostJobs m_hostJobs;
    std::vector<Rgb> m_jobColours;  // by job index
    std::vector<std::int32_t> m_gpuJobs;
    std::optional<Nanos> m_jobsAt;  // the instant m_gpuJobs holds, moved on from there by the jobs that start or end
};

}  // namespace faultline
