// What `faultline-cli` says of real incidents, as a user reads it: only the hardware the
// evidence names, the failure on the process the evidence names (or "rank unknown"), one
// assumed year per log, lost work and rates only where the evidence supports them.
#include "cli_command.h"
#include "realdata.h"
#include "test_runs.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace faultline {
namespace {

using test::runCli;
using Result = test::CommandResult;

// NeMo + torchrun on one host, smciserver: 8 ranks segfault; torchrun's summary lists ranks
// 0-4 and 6-7 (pids 222-226, 228, 229) and not pid 227, whose segfault line comes first.
const char* kSegfaultLog =
    "training_logs/training_results_v4.0/Red_Hat/benchmarks/llama2_70b_lora/implementations/AS-8125GS-TNHR-RHEL9.4/scripts/results/"
    "240501220259714847728_1.log";

// The line of `text` that starts with `label` (after its indentation).
std::string lineWith(const std::string& text, const std::string& label) {
    const std::size_t at = text.find(label);
    if (at == std::string::npos) return {};
    const std::size_t begin = text.rfind('\n', at) + 1;
    return text.substr(begin, text.find('\n', at) - begin);
}

TEST(IncidentTruth, ACrashLogImportsAsTheOneHostItNamesWithTheFailureOnThePidItNames) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string run = dir.file("crash.faultline");
    const Result imported = runCli("import " + test::realData(kSegfaultLog) + " -o " + run);
    ASSERT_EQ(imported.status, 0) << imported.output;
    // One 8-GPU host: rank 5 (absent from torchrun's summary) is on it by the numbering of the others.
    EXPECT_NE(imported.output.find(": 1 host, 8 GPUs (topology derived from the files)"), std::string::npos) << imported.output;
    EXPECT_EQ(imported.output.find("unplaced"), std::string::npos) << imported.output;
    EXPECT_NE(imported.output.find("rank 5) placed on smciserver at local rank 5"), std::string::npos) << imported.output;
    // glog's yearless "W0501 22:03:53" before NeMo's "2024-05-01 22:04:11" is 2024's: one year.
    EXPECT_NE(imported.output.find("note: times without a year took 2024 (nearest the log's own dated lines"), std::string::npos) << imported.output;
    EXPECT_EQ(imported.output.find("2026"), std::string::npos) << imported.output;

    // The failure is pid 227's, whose rank no line gives: its host, "rank unknown", no GPU named
    // in its place (not torchrun's root cause rank 0 on smciserver-gpu0).
    const Result chain = runCli("incidents " + run + " --id 1", false);
    ASSERT_EQ(chain.status, 0) << chain.output;
    EXPECT_NE(chain.output.find("Incident 1: Software Bug on smciserver (7 GPUs)\n"), std::string::npos) << chain.output;
    EXPECT_NE(chain.output.find("first to fail: pid 227 on smciserver, rank unknown (no line gives its rank)"), std::string::npos) << chain.output;
    EXPECT_EQ(chain.output.find("smciserver-gpu0"), std::string::npos) << chain.output;
    EXPECT_EQ(chain.output.find("Blast radius"), std::string::npos) << "a segfault blames no hardware:\n" << chain.output;
    // The segfault lines print no time: the failure takes torchrun's record of it (22:04:48), not
    // the time of an unrelated NeMo line before them (22:04:12) passed off as its own.
    EXPECT_NE(chain.output.find("\n  when: 2024-05-01 22:04:48 UTC\n"), std::string::npos) << chain.output;

    // Lost work: 25 s of log supports none: "unknown", null, empty, never "0 s".
    const Result list = runCli("incidents " + run, false);
    EXPECT_NE(lineWith(list.output, "Software Bug").find(" unknown "), std::string::npos) << list.output;
    EXPECT_EQ(lineWith(list.output, "Software Bug").find(" 0 s "), std::string::npos) << list.output;
    const nlohmann::json json = nlohmann::json::parse(runCli("incidents --json " + run, false).output);
    EXPECT_TRUE(json[0]["lost_work_s"].is_null()) << json.dump(2);
    EXPECT_EQ(json[0]["hardware"], "smciserver (7 GPUs)");
    const std::string csv = runCli("incidents --csv " + run, false).output;
    auto fields = [](const std::string& line) {
        std::vector<std::string> out(1);
        bool quoted = false;
        for (char c : line) {
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) out.emplace_back();
            else out.back() += c;
        }
        return out;
    };
    const std::vector<std::string> header = fields(csv.substr(0, csv.find('\n')));
    const std::size_t second = csv.find('\n') + 1;
    const std::vector<std::string> row = fields(csv.substr(second, csv.find('\n', second) - second));
    const auto lost = std::find(header.begin(), header.end(), "lost_work_s");
    ASSERT_NE(lost, header.end()) << csv;
    ASSERT_EQ(row.size(), header.size()) << csv;
    EXPECT_EQ(row[static_cast<std::size_t>(lost - header.begin())], "") << csv;
}

TEST(IncidentTruth, AHangsLostWorkIsUnknownInEveryListOfTheCli) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string run = dir.file("hang.faultline");
    const std::string dumps = test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/lock_gil_1st");
    ASSERT_EQ(runCli("import " + dumps + " -o " + run).status, 0);
    const Result list = runCli("incidents " + run, false);
    ASSERT_EQ(list.status, 0) << list.output;
    const std::string row = lineWith(list.output, "NCCL Watchdog Timeouts");
    EXPECT_NE(row.find(" unknown "), std::string::npos) << list.output;
    EXPECT_EQ(row.find(" 0 s "), std::string::npos) << list.output;
    EXPECT_TRUE(nlohmann::json::parse(runCli("incidents --json " + run, false).output)[0]["lost_work_s"].is_null());
}

// A crash log's 25 s beside a simulated two-day run: no rate per 1,000 GPU-days for the log,
// no percentage and no "worse" for counts of runs that cannot be set side by side.
TEST(IncidentTruth, ComparingACrashLogWithALongRunGivesNoRateAndNoPercentage) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    ASSERT_EQ(runCli("import " + test::realData("console_logs/34-bigscience-tr1-13B-ecc-iteration-traceback.log") + " -o " + dir.file("crash.faultline")).status, 0);
    ASSERT_EQ(runCli("simulate --preset tiny -o " + dir.file("long.faultline")).status, 0);
    const Result text = runCli("compare " + dir.file("crash.faultline") + " " + dir.file("long.faultline"), false);
    ASSERT_EQ(text.status, 0) << text.output;
    const std::string rate = lineWith(text.output, "Unexpected per 1,000 GPU-days");
    EXPECT_NE(rate.find("not enough of the run to say"), std::string::npos) << text.output;
    EXPECT_EQ(rate.find("0.000"), std::string::npos) << text.output;
    EXPECT_EQ(rate.find('%'), std::string::npos) << text.output;
    const std::string count = lineWith(text.output, "Unexpected interruptions");
    EXPECT_EQ(count.find('%'), std::string::npos) << text.output;
    EXPECT_EQ(count.find("worse"), std::string::npos) << text.output;
    EXPECT_EQ(count.find("better"), std::string::npos) << text.output;
    // The root causes' rates: the log's side says why, the long run's stands.
    const std::string causes = text.output.substr(text.output.find("Root causes of unexpected interruptions"));
    EXPECT_NE(causes.find("rate A: not enough of the run to say: needs the GPUs the files name and at least a day of run"), std::string::npos)
        << causes;
    EXPECT_EQ(causes.find("rate B:"), std::string::npos) << causes;
}

}  // namespace
}  // namespace faultline
