#include "analysis/run_highlights.h"

#include "test_runs.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

// A run whose Flight Recorder dumps show a hang: rank `culprit` never joined all-reduce #41
// of the tensor-parallel group of ranks 0-7, where the seven others wait.
Run hungRun(std::int32_t culprit, std::size_t origins) {
    Run run = test::tinyRun();
    HangReport hang;
    hang.dumps = 8;
    for (std::size_t i = 0; i < origins; ++i) {
        HangFinding f;
        f.processGroup = "tp" + std::to_string(i);
        f.processGroupDesc = "TENSOR_MODEL_PARALLEL_GROUP";
        f.seq = 41;
        f.op = "nccl:all_reduce";
        f.missing = {culprit};
        for (std::int32_t r = 0; r < 8; ++r)
            if (r != culprit) f.stuck.push_back(r);
        hang.findings.push_back(f);
        hang.origins.push_back({i, {culprit}, f.stuck});
    }
    hang.culprits = {culprit};
    run.hang = hang;
    return run;
}

TEST(RunHighlights, AHungJobLeadsWithWhereTheHangBegan) {
    const faultline::Run run = hungRun(5, 1);
    const std::vector<std::string> lines = runHighlights(run, summarize(run), analyzeStragglers(run));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "Hung: rank 5 never joined all_reduce #41 in process group tp0 (TENSOR_MODEL_PARALLEL_GROUP); ranks 0-4,6-7 wait in it");
}

TEST(RunHighlights, ManyHangsNameThreeAndCountTheRest) {
    const faultline::Run run = hungRun(2, 5);
    const std::vector<std::string> lines = runHighlights(run, summarize(run), analyzeStragglers(run));
    ASSERT_GE(lines.size(), 4u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(lines[i].rfind("Hung: rank 2 never joined all_reduce #41 in process group tp" + std::to_string(i), 0), 0u) << lines[i];
    EXPECT_EQ(lines[3], "Hung in 2 more places (faultline-cli hang lists them)");
    for (std::size_t i = 4; i < lines.size(); ++i) EXPECT_EQ(lines[i].find("Hung"), std::string::npos) << lines[i];
}

TEST(RunHighlights, ARunWithoutAHangSaysNothingOfOne) {
    const faultline::Run& run = test::tinyRun();
    const std::vector<std::string> lines = runHighlights(run, summarize(run), analyzeStragglers(run));
    ASSERT_FALSE(lines.empty()) << "the run's other highlights";
    for (const std::string& line : lines) EXPECT_EQ(line.find("Hung"), std::string::npos) << line;
}

}  // namespace
}  // namespace faultline
