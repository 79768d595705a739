// Hang attribution on real Flight Recorder dumps of a 16-rank Megatron MoE job with injected
// faults: our findings must agree with the reference analyzer's output for the same dumps.
#include "importers/flight_recorder_reader.h"
#include "analysis/hang_analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace faultline {
namespace {

const std::string kUnit = std::string(FAULTLINE_REALDATA) + "/flight_recorder/nvidia-resiliency-ext/tests/attribution/unit";

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
    // fault_injection.log names the faulted ranks; every culprit must be one of them.
    for (const char* set : {"gpu_error_1st", "gpu_error_2nd", "lock_gil_1st"}) {
        std::ifstream log(kUnit + "/fr_traces/" + set + "/fault_injection.log");
        std::string line;
        std::getline(log, line);  // "Fault ranks: [12, 14]"
        const HangReport report = analyzeHang(readFlightRecorderDumps({kUnit + "/fr_traces/" + set}));
        for (std::int32_t r : report.culprits) EXPECT_NE(line.find(std::to_string(r)), std::string::npos) << set << ": " << line;
    }
}

TEST(RealHangs, ReadsTheDumpFields) {
    const FlightRecorderDump d = readFlightRecorderDump(kUnit + "/fr_traces/gpu_error_1st/_dump_12");
    EXPECT_EQ(d.rank, 12);
    EXPECT_EQ(d.version, "2.9");
    EXPECT_EQ(d.ncclVersion, "2.27.3");
    ASSERT_EQ(d.groups.count("74"), 1u);
    EXPECT_EQ(d.groups.at("74").desc, "EXPERT_MODEL_PARALLEL_GROUP");
    EXPECT_EQ(d.groups.at("74").ranks, (std::vector<std::int32_t>{12, 13, 14, 15}));
    const FlightRecorderEntry& last = d.entries.back();
    EXPECT_EQ(last.processGroup, "74");
    EXPECT_EQ(last.collectiveSeqId, 20536);
    EXPECT_EQ(last.profilingName, "nccl:all_to_all");
    EXPECT_EQ(last.inputSizes, (std::vector<std::vector<std::int64_t>>{{4096, 5120}}));
    EXPECT_EQ(last.state, "scheduled");
    EXPECT_EQ(last.timeCreatedNs, 1758610505924024825);
    EXPECT_FALSE(last.timeCompletedNs.has_value());
    EXPECT_EQ(d.groupStatus.at(std::to_string(last.pgId)).lastEnqueued, 20536);
}

// Synthetic dumps for what the real sets lack: a dtype mismatch, and no hang at all.
FlightRecorderDump syntheticDump(std::int32_t rank, std::int64_t lastSeq, const std::string& dtype) {
    FlightRecorderDump d;
    d.rank = rank;
    d.groups["0"] = {"0", "default_pg", {0, 1}};
    d.groupStatus["0"] = {lastSeq, lastSeq, lastSeq - 1};
    for (std::int64_t seq = lastSeq - 2; seq <= lastSeq; ++seq) {
        FlightRecorderEntry e;
        e.processGroup = "0";
        e.processGroupDesc = "default_pg";
        e.pgId = 0;
        e.collectiveSeqId = seq;
        e.profilingName = "nccl:all_reduce";
        e.inputSizes = {{1024}};
        e.inputDtypes = {seq == lastSeq ? dtype : "Float"};
        e.state = seq == lastSeq ? "started" : "completed";
        e.timeCreatedNs = 1'000 * seq + rank;
        d.entries.push_back(e);
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
    ahead.groups["0"].ranks = {0, 1, 2};
    const HangReport report = analyzeHang({ahead, behind});
    EXPECT_EQ(report.ranksWithoutDump, (std::vector<std::int32_t>{2}));
    ASSERT_FALSE(report.findings.empty());
    EXPECT_EQ(report.findings[0].seq, 9);
    EXPECT_EQ(report.findings[0].missing, (std::vector<std::int32_t>{1, 2}));
    const nlohmann::json j = hangToJson(report);
    EXPECT_EQ(j["culprit_ranks"], nlohmann::json({1, 2}));
}

TEST(HangAnalysis, NoHang) {
    FlightRecorderDump a = syntheticDump(0, 10, "Float"), b = syntheticDump(1, 10, "Float");
    for (FlightRecorderDump* d : {&a, &b}) {
        d->groupStatus["0"].lastCompleted = 10;
        d->entries.back().state = "completed";
    }
    const HangReport report = analyzeHang({a, b});
    EXPECT_TRUE(report.findings.empty());
    EXPECT_NE(hangToText(report).find("No hang"), std::string::npos);
}

}  // namespace
}  // namespace faultline
