#include "views/fabric/job_colouring.h"

#include "model/error.h"
#include "model/metric_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

namespace faultline {

namespace {

Rgb hsv(double h, double s, double v) {
    const double c = v * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2.0) - 1)), m = v - c;
    double r = 0, g = 0, b = 0;
    if (h < 60) r = c, g = x;
    else if (h < 120) r = x, g = c;
    else if (h < 180) g = c, b = x;
    else if (h < 240) g = x, b = c;
    else if (h < 300) r = x, b = c;
    else r = c, b = x;
    auto byte = [m](double u) { return static_cast<std::uint8_t>(std::lround((u + m) * 255)); };
    return {byte(r), byte(g), byte(b)};
}

}  // namespace

Rgb jobColour(const Job& job) {
    // Ids of a scheduler are numbers in submission order: the golden ratio spreads
    // neighbouring numbers far apart around the wheel. Other ids hash to a number.
    char* end = nullptr;
    const unsigned long long parsed = std::strtoull(job.id.c_str(), &end, 10);
    const std::uint64_t n = end != job.id.c_str() ? parsed : std::hash<std::string>{}(job.id);
    const double turn = std::fmod(static_cast<double>(n % 100'000) * 0.6180339887, 1.0);
    const double hue = 75.0 + 255.0 * turn;  // green through blue and purple to pink: no red, no yellow
    const bool dark = (n / 3) % 2 == 0;
    return hsv(hue, dark ? 0.75 : 0.5, dark ? 0.62 : 0.86);
}

std::int32_t colourByNamed(const Run& run, const std::string& text) {
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != "job") return metricNamed(run.telemetry, text);
    if (run.jobs.empty()) throw Error("the run has no jobs to colour by (its files named no scheduler jobs)");
    return kColourByJob;
}

JobColouring::JobColouring(const Run& run) : m_run(run), m_hostJobs(run) {
    m_jobColours.reserve(run.jobs.size());
    for (const Job& j : run.jobs) m_jobColours.push_back(jobColour(j.parent >= 0 ? run.jobs[static_cast<std::size_t>(j.parent)] : j));
}

void JobColouring::colour(Nanos t, std::span<const GpuVisual> states, const StatePalette& palette, std::vector<Rgb>& colours, std::vector<int>& rank) {
    const std::size_t n = states.size();
    if (!m_jobsAt || !m_hostJobs.advanceGpuJobs(*m_jobsAt, t, m_gpuJobs)) {
        m_gpuJobs.resize(m_run.topology.gpus.size());
        m_hostJobs.gpuJobsAt(t, m_gpuJobs);
    }
    m_jobsAt = t;
    colours.resize(n);
    rank.resize(n);
    for (std::size_t g = 0; g < n; ++g) {
        const std::int32_t job = g < m_gpuJobs.size() ? m_gpuJobs[g] : -1;
        if (states[g].state == GpuState::Failed) {
            colours[g] = palette.failed;
            rank[g] = 1000;
        } else if (job < 0) {
            colours[g] = kIdleColour;
            rank[g] = 0;
        } else {
            colours[g] = m_jobColours[static_cast<std::size_t>(job)];
            rank[g] = 1;
        }
    }
}

}  // namespace faultline
