// `faultline-cli incidents --id N` on an incident whose rack switch failed prints the blast
// radius of that switch; on a GPU's incident, none.
#include "cli_command.h"
#include "test_runs.h"

#include "analysis/blast_radius.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

using test::runCliStdout;

TEST(BlastRadiusCli, IncidentOfAFailedRackSwitchListsWhatItCutOff) {
    test::ScratchDir dir;
    const std::string path = dir.file("switch.faultline");
    const faultline::Run& run = test::rackSwitchFailureRun();
    writeRunFile(run, path);
    const Failure& failure = test::rackSwitchFailure(run);
    const auto incidents = buildIncidents(run);
    const auto incident = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) {
        return failedPart(run, i) == failure.component;
    });
    ASSERT_NE(incident, incidents.end());
    const auto out = runCliStdout("incidents --id " + std::to_string(incident->id) + " " + path);
    ASSERT_EQ(out.status, 0) << out.output;
    const Switch& sw = run.topology.switches[static_cast<std::size_t>(failure.component.index)];
    EXPECT_NE(out.output.find("Blast radius of " + sw.name + ":"), std::string::npos) << out.output;
    EXPECT_NE(out.output.find("cuts off 16 GPUs (1 whole rack)"), std::string::npos) << out.output;
    EXPECT_NE(out.output.find("racks: " + run.topology.racks[static_cast<std::size_t>(sw.rack)].name), std::string::npos) << out.output;
    EXPECT_NE(out.output.find("path up ("), std::string::npos) << out.output;

    // With its ranks placed and its job known, it says whose traffic the switch carried.
    faultline::Run placed = run;
    for (std::int32_t g = 0; g < static_cast<std::int32_t>(placed.topology.gpus.size()); ++g) placed.rankToGpu.push_back(g);
    Job job;
    job.id = "4242";
    for (std::int32_t h = 0; h < static_cast<std::int32_t>(placed.topology.hosts.size()); ++h) job.hosts.push_back(h);
    placed.jobs = {job};
    const std::string placedPath = dir.file("placed.faultline");
    writeRunFile(placed, placedPath);
    const auto placedOut = runCliStdout("incidents --id " + std::to_string(incident->id) + " " + placedPath);
    ASSERT_EQ(placedOut.status, 0) << placedOut.output;
    const std::string ranks = rankRanges(placed.topology.gpusBelowSwitch(failure.component.index));
    EXPECT_NE(placedOut.output.find("carries the traffic of ranks " + ranks + " of job 4242"), std::string::npos) << placedOut.output;

    const auto gpuIncident = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) {
        return failedPart(run, i).kind == ComponentKind::Gpu;
    });
    ASSERT_NE(gpuIncident, incidents.end());
    const auto gpuOut = runCliStdout("incidents --id " + std::to_string(gpuIncident->id) + " " + path);
    ASSERT_EQ(gpuOut.status, 0);
    EXPECT_EQ(gpuOut.output.find("Blast radius"), std::string::npos) << "a GPU takes out only itself";
}

}  // namespace
}  // namespace faultline
