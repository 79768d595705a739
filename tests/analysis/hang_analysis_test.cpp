// Hang attribution on real Flight Recorder dumps of a 16-rank Megatron MoE job with injected
// faults: our findings must agree with the reference analyzer's output for the same dumps.
#include "importers/pytorch/flight_recorder_reader.h"
#include "analysis/hang_analysis.h"

#include "realdata.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace faultline {
namespace {

const std::string kUnit = test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit");

struct ReferenceRow {
    std::string pgid, desc, op, size, dtype, missing;
};

// The reference analyzer's table: a header, then "PGID | desc,N | op | size | dtype | ranks".
ReferenceRow referenceRow(const std::string& set) {
    std::ifstream in(kUnit + "/reference_outputs/" + set + "_reference.txt");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    std::vector<std::string> cells;
    std::stringstream ss(row);
    for (std::string cell; std::getline(ss, cell, '|');) {
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
    }
    EXPECT_EQ(cells.size(), 6u) << row;
    cells.resize(6);
    return {cells[0], cells[1].substr(0, cells[1].rfind(',')), cells[2], cells[3], cells[4], cells[5]};
}

std::string joined(const std::vector<std::int32_t>& ranks) {
    std::string out;
    for (std::int32_t r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
    return out;
}

class RealHangs : public ::testing::TestWithParam<std::string> {};

TEST_P(RealHangs, AgreeWithTheReferenceAnalyzer) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::string set = GetParam();
    const HangReport report = analyzeHang(readFlightRecorderDumps({kUnit + "/fr_traces/" + set}));
    EXPECT_EQ(report.dumps, 16);
    EXPECT_TRUE(report.ranksWithoutDump.empty());
    ASSERT_FALSE(report.findings.empty());
    const HangFinding& first = report.findings.front();
    const ReferenceRow expected = referenceRow(set);
    EXPECT_EQ(first.processGroup, expected.pgid);
    EXPECT_EQ(first.processGroupDesc, expected.desc);
    EXPECT_EQ(first.op, expected.op);
    EXPECT_EQ(first.size, expected.size);
    EXPECT_EQ(first.dtype, expected.dtype);
    EXPECT_EQ(joined(first.missing), expected.missing);
    EXPECT_EQ(joined(report.culprits), expected.missing);
}

INSTANTIATE_TEST_SUITE_P(FaultInjection, RealHangs, ::testing::Values("gpu_error_1st", "gpu_error_2nd", "lock_gil_1st"));

TEST(RealHangs, CulpritsWereFaulted) {
    FAULTLINE_REQUIRE_REALDATA();
    // fault_injection.log names the faulted ranks; every culprit must be one of them.
    for (const char* set : {"gpu_error_1st", "gpu_error_2nd", "lock_gil_1st"}) {
        std::ifstream log(kUnit + "/fr_traces/" + set + "/fault_injection.log");
        std::string line;
        std::getline(log, line);  // "Fault ranks: [12, 14]"
        const HangReport report = analyzeHang(readFlightRecorderDumps({kUnit + "/fr_traces/" + set}));
        ASSERT_FALSE(report.culprits.empty()) << set << ": no culprit named";
        for (std::int32_t r : report.culprits) EXPECT_NE(line.find(std::to_string(r)), std::string::npos) << set << ": " << line;
    }
}

TEST(RealHangs, ReadsTheDumpFields) {
    FAULTLINE_REQUIRE_REALDATA();
    const FlightRecorderDump d = readFlightRecorderDump(kUnit + "/fr_traces/gpu_error_1st/_dump_12");
    EXPECT_EQ(d.rank, 12);
    EXPECT_EQ(d.version, "2.9");
    EXPECT_EQ(d.ncclVersion, "2.27.3");
    ASSERT_EQ(d.groups.count("74"), 1u);
    EXPECT_EQ(d.groups.at("74").desc, "EXPERT_MODEL_PARALLEL_GROUP");
    EXPECT_EQ(*d.groups.at("74").ranks, (std::vector<std::int32_t>{12, 13, 14, 15}));
    const FlightRecorderEntry& last = d.entries.back();
    EXPECT_EQ(d.groupOf(last).name, "74");
    EXPECT_EQ(last.collectiveSeqId, 20536);
    EXPECT_EQ(d.opOf(last), "nccl:all_to_all");
    EXPECT_EQ(d.inputOf(last).sizes, (std::vector<std::vector<std::int64_t>>{{4096, 5120}}));
    EXPECT_EQ(last.state, FlightRecorderState::Scheduled);
    EXPECT_EQ(last.timeCreatedNs, 1758610505924024825);
    EXPECT_EQ(d.groupStatus.at(std::to_string(d.groupOf(last).pgId)).lastEnqueued, 20536);
}

// Synthetic dumps for what the real sets lack: a dtype mismatch, and no hang at all.
FlightRecorderDump syntheticDump(std::int32_t rank, std::int64_t lastSeq, const std::string& dtype) {
    FlightRecorderDump d;
    d.rank = rank;
    d.groups["0"] = flightRecorderGroup("0", "default_pg", {0, 1});
    d.groupStatus["0"] = {lastSeq, lastSeq, lastSeq - 1};
    for (std::int64_t seq = lastSeq - 2; seq <= lastSeq; ++seq) {
        FlightRecorderEntryText e;
        e.processGroup = "0";
        e.processGroupDesc = "default_pg";
        e.pgId = 0;
        e.collectiveSeqId = seq;
        e.profilingName = "nccl:all_reduce";
        e.input = {{{1024}}, {seq == lastSeq ? dtype : "Float"}};
        e.state = seq == lastSeq ? "started" : "completed";
        e.timeCreatedNs = 1'000 * seq + rank;
        d.add(e);
    }
    return d;
}

TEST(HangAnalysis, DtypeMismatchIsNamed) {
    const HangReport report = analyzeHang({syntheticDump(0, 10, "Float"), syntheticDump(1, 10, "BFloat16")});
    ASSERT_EQ(report.findings.size(), 1u);
    const HangFinding& f = report.findings.front();
    EXPECT_EQ(f.seq, 10);
    EXPECT_TRUE(f.missing.empty());
    EXPECT_EQ(f.stuck, (std::vector<std::int32_t>{0, 1}));
    ASSERT_EQ(f.mismatches.size(), 1u);
    EXPECT_EQ(f.mismatches[0], "rank 1 sends BFloat16 where rank 0 sends Float");
}

TEST(HangAnalysis, MissingDumpAndBehindRank) {
    FlightRecorderDump behind = syntheticDump(1, 8, "Float");
    behind.groupStatus["0"].lastCompleted = 8;
    FlightRecorderDump ahead = syntheticDump(0, 10, "Float");
    ahead.groups["0"] = flightRecorderGroup("0", "default_pg", {0, 1, 2});
    const HangReport report = analyzeHang({ahead, behind});
    EXPECT_EQ(report.ranksWithoutDump, (std::vector<std::int32_t>{2}));
    ASSERT_FALSE(report.findings.empty());
    EXPECT_EQ(report.findings[0].seq, 9);
    EXPECT_EQ(report.findings[0].missing, (std::vector<std::int32_t>{1, 2}));
    const nlohmann::json j = hangToJson(report);
    EXPECT_EQ(j["culprit_ranks"], nlohmann::json({1, 2}));
}

// One rank's view of one group in a multi-group job: it enqueued collectives up to
// `lastEnqueued` and completed them up to `lastCompleted`; collective seq N was enqueued at
// `enqueuedAt + N` ns.
struct GroupProgress {
    std::string name;
    std::vector<std::int32_t> ranks;
    std::int64_t lastEnqueued = 0;
    std::int64_t lastCompleted = 0;
    std::int64_t enqueuedAt = 0;
};

FlightRecorderDump multiGroupDump(std::int32_t rank, const std::vector<GroupProgress>& groups) {
    FlightRecorderDump d;
    d.rank = rank;
    for (std::size_t id = 0; id < groups.size(); ++id) {
        const GroupProgress& g = groups[id];
        d.groups[g.name] = flightRecorderGroup(g.name, g.name == "dp" ? "DATA_PARALLEL_GROUP" : "EXPERT_MODEL_PARALLEL_GROUP", g.ranks);
        d.groupStatus[std::to_string(id)] = {g.lastEnqueued, g.lastEnqueued, g.lastCompleted};
        for (std::int64_t seq = g.lastEnqueued - 2; seq <= g.lastEnqueued; ++seq) {
            FlightRecorderEntryText e;
            e.processGroup = g.name;
            e.pgId = static_cast<std::int64_t>(id);
            e.collectiveSeqId = seq;
            e.profilingName = "nccl:all_to_all";
            e.input = {{{4096, 5120}}, {"BFloat16"}};
            e.state = seq <= g.lastCompleted ? "completed" : "started";
            e.timeCreatedNs = g.enqueuedAt + seq;
            d.add(e);
        }
    }
    return d;
}

TEST(HangAnalysis, TwoIndependentHangsHaveTwoCulprits) {
    // Ranks 1 and 6 froze on their own, each in its own expert-parallel group: everyone else
    // in ep0 and ep1 enqueued all_to_all #10 and waits in it.
    std::vector<FlightRecorderDump> dumps;
    for (std::int32_t rank = 0; rank < 8; ++rank) {
        const bool frozen = rank == 1 || rank == 6;
        const std::string group = rank < 4 ? "ep0" : "ep1";
        const std::vector<std::int32_t> members = rank < 4 ? std::vector<std::int32_t>{0, 1, 2, 3} : std::vector<std::int32_t>{4, 5, 6, 7};
        dumps.push_back(multiGroupDump(rank, {{group, members, frozen ? 9 : 10, 9, rank < 4 ? 1'000 : 2'000}}));
    }
    const HangReport report = analyzeHang(dumps);
    EXPECT_EQ(report.culprits, (std::vector<std::int32_t>{1, 6}));
    ASSERT_EQ(report.origins.size(), 2u);
    const HangFinding& first = report.findings[report.origins[0].finding];
    EXPECT_EQ(first.processGroup, "ep0");
    EXPECT_EQ(first.seq, 10);
    EXPECT_EQ(report.origins[0].culprits, (std::vector<std::int32_t>{1}));
    EXPECT_EQ(report.origins[0].waiting, (std::vector<std::int32_t>{0, 2, 3}));
    EXPECT_EQ(report.findings[report.origins[1].finding].processGroup, "ep1");
    EXPECT_EQ(report.origins[1].culprits, (std::vector<std::int32_t>{6}));
    EXPECT_EQ(report.origins[1].waiting, (std::vector<std::int32_t>{4, 5, 7}));
    const nlohmann::json j = hangToJson(report);
    EXPECT_EQ(j["culprit_ranks"], nlohmann::json({1, 6}));
    EXPECT_EQ(j["origins"].size(), 2u);
    EXPECT_EQ(j["origins"][1]["waiting_ranks"], nlohmann::json({4, 5, 7}));
    const std::string text = hangToText(report);
    EXPECT_NE(text.find("Hang 2 of 2 began in process group ep1"), std::string::npos) << text;
}

TEST(HangAnalysis, AHangThatSpreadsAcrossGroupsHasOneCulprit) {
    // Rank 0 froze in ep0 = {0, 1}: rank 1 waits there in all_to_all #10, so it never joined
    // dp = {1, 2}'s collective #20, which rank 2 had enqueued even earlier. Rank 1 is missing
    // from dp only because it is stuck behind rank 0: rank 0 alone is the culprit.
    const HangReport report = analyzeHang({
        multiGroupDump(0, {{"ep0", {0, 1}, 9, 9, 5'000}}),
        multiGroupDump(1, {{"ep0", {0, 1}, 10, 9, 5'000}, {"dp", {1, 2}, 19, 19, 1'000}}),
        multiGroupDump(2, {{"dp", {1, 2}, 20, 19, 1'000}}),
    });
    EXPECT_EQ(report.culprits, (std::vector<std::int32_t>{0}));
    ASSERT_EQ(report.origins.size(), 1u);
    EXPECT_EQ(report.findings[report.origins[0].finding].processGroup, "ep0");
    EXPECT_EQ(report.origins[0].waiting, (std::vector<std::int32_t>{1}));
    // The table still shows the victim's gap in dp.
    bool dpListed = false;
    for (const HangFinding& f : report.findings)
        if (f.processGroup == "dp") dpListed = f.missing == std::vector<std::int32_t>{1};
    EXPECT_TRUE(dpListed);
}

TEST(HangAnalysis, NoHang) {
    FlightRecorderDump a = syntheticDump(0, 10, "Float"), b = syntheticDump(1, 10, "Float");
    for (FlightRecorderDump* d : {&a, &b}) {
        d->groupStatus["0"].lastCompleted = 10;
        d->entries.back().state = FlightRecorderState::Completed;
    }
    const HangReport report = analyzeHang({a, b});
    EXPECT_TRUE(report.findings.empty());
    EXPECT_NE(hangToText(report).find("No hang"), std::string::npos);
}

}  // namespace
}  // namespace faultline
