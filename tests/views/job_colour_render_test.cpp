// View > Colour By > Job, rendered for real on a small fleet: each GPU in the colour of the
// job holding it at the instant, jobs apart from one another, idle hardware pale, a failed
// GPU still red, and a job keeping its colour through its requeues.
#include "shown_fabric.h"
#include "test_runs.h"

#include "model/host_jobs.h"
#include "views/fabric/job_colouring.h"
#include "views/state_palette.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace faultline {
namespace {

using test::colourAt;
using test::near;

constexpr Nanos kAt = 30 * kHour;

TEST(JobColourRender, EachGpuInTheColourOfTheJobHoldingIt) {
    const faultline::Run& run = test::smallFleetRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kColourByJob);
    EXPECT_EQ(shown.view().colourBy(), kColourByJob);
    const QImage image = shown.renderAt(kAt);
    const HostJobs hostJobs(run);
    const std::vector<GpuVisual> states = shown.view().replay()->statesAt(kAt);
    std::map<std::string, std::int32_t> gpuOfJob;  // one GPU of each job running then
    std::int32_t idle = -1;
    for (std::size_t g = 0; g < run.topology.gpus.size(); ++g) {
        if (states[g].state == GpuState::Failed) continue;
        const std::int32_t job = hostJobs.jobAt(run.topology.gpus[g].host, kAt);
        const Rgb shownColour = shown.view().gpuColourShown(static_cast<std::int32_t>(g));
        if (job < 0) {
            ASSERT_EQ(shownColour, kIdleColour) << "idle GPU " << g;
            idle = static_cast<std::int32_t>(g);
        } else {
            ASSERT_EQ(shownColour, jobColour(run.jobs[static_cast<std::size_t>(job)])) << "GPU " << g;
            gpuOfJob.emplace(run.jobs[static_cast<std::size_t>(job)].id, static_cast<std::int32_t>(g));
        }
    }
    EXPECT_GE(gpuOfJob.size(), 10u) << "the small fleet runs many jobs at once";
    EXPECT_GE(idle, 0) << "some hardware waits for a job";
    // Jobs side by side tell apart: most running jobs have a colour of their own.
    std::set<Rgb> colours;
    for (const auto& [id, gpu] : gpuOfJob) colours.insert(shown.view().gpuColourShown(gpu));
    EXPECT_GE(colours.size() * 10, gpuOfJob.size() * 8);
    EXPECT_EQ(colours.count(kIdleColour), 0u);
    EXPECT_EQ(colours.count(activeStatePalette().failed), 0u);
    // Drawn so: the pre-training job's first GPU on the screen in its colour.
    const std::int32_t first = run.topology.hosts[static_cast<std::size_t>(run.jobs[static_cast<std::size_t>(hostJobs.jobAt(0, kAt))].hosts.front())].firstGpu;
    const Rgb expected = shown.view().gpuColourShown(first);
    const QColor drawn = colourAt(image, shown.view().gpuPosition(first));
    EXPECT_TRUE(near(drawn, expected[0], expected[1], expected[2], 24)) << drawn.name().toStdString();
}

// A replay moving forwards only rewrites the hosts of the jobs that start or end meanwhile: at
// every instant it goes to, forwards, backwards and on either side of a start or an end, the
// jobs are those of that instant.
TEST(JobColourRender, TheJobsHoldingEachGpuAreThoseOfEveryInstantTheReplayGoesTo) {
    const faultline::Run& run = test::smallFleetRun();
    const HostJobs hostJobs(run);
    JobColouring colouring(run);
    const std::vector<GpuVisual> states(run.topology.gpus.size());
    std::vector<Rgb> colours;
    std::vector<int> rank;
    std::vector<Nanos> instants;
    for (Nanos t = 0; t <= run.info.duration; t += 7 * kMinute) instants.push_back(t);
    for (const Job& j : run.jobs)
        for (const std::optional<Nanos>& edge : {j.start, j.end})
            if (edge) instants.insert(instants.end(), {*edge - 1, *edge, *edge + 1, *edge});
    for (Nanos t = run.info.duration; t > 0; t -= 13 * kHour) instants.push_back(t);
    std::vector<std::int32_t> expected(run.topology.gpus.size());
    int changes = 0;
    for (Nanos t : instants) {
        hostJobs.gpuJobsAt(t, expected);
        const std::vector<std::int32_t> before = colouring.jobs();
        colouring.colour(t, states, activeStatePalette(), colours, rank);
        ASSERT_EQ(colouring.jobs(), expected) << "at " << t << " ns";
        changes += colouring.jobs() != before;
    }
    EXPECT_GT(changes, 20) << "the jobs change through the run";
}

TEST(JobColourRender, AFailedGpuStaysRedAndARequeuedJobKeepsItsColour) {
    const faultline::Run& run = test::smallFleetRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kColourByJob);
    const Failure* struck = nullptr;
    for (const Failure& f : run.failures)
        if (!f.gpus.empty() && !f.jobs.empty() && !run.jobs[static_cast<std::size_t>(f.jobs.front())].inRun) {
            struck = &f;
            break;
        }
    ASSERT_NE(struck, nullptr);
    shown.renderAt(struck->time);
    EXPECT_EQ(shown.view().gpuColourShown(struck->gpus.front()), activeStatePalette().failed);
    // The job it ended, and its requeued run: one id, one colour.
    const Job& ended = run.jobs[static_cast<std::size_t>(struck->jobs.front())];
    EXPECT_TRUE(ended.state == "NODE_FAIL" || ended.state == "FAILED") << ended.state;
    for (const Job& j : run.jobs) {
        if (j.id == ended.id && j.restarts > ended.restarts) {
            EXPECT_EQ(jobColour(j), jobColour(ended));
        }
    }
}

}  // namespace
}  // namespace faultline
