// The data exports as their readers meet them: faultline-cli's CSV tables read back with a
// CSV parser, and the Perfetto trace parsed as a trace viewer would.
#include "cli_command.h"
#include "test_runs.h"

#include "analysis/goodput.h"
#include "analysis/incidents.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "exports/perfetto_export.h"
#include "model/incident_notes.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace faultline {
namespace {

using test::runCliStdout;
using test::ScratchDir;
using Table = std::vector<std::vector<std::string>>;

// RFC 4180 as a spreadsheet reads it: quoted fields may hold commas, doubled quotes and
// line breaks; rows end in CRLF or LF.
Table parseCsv(const std::string& text) {
    Table rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field)), field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            row.push_back(std::move(field)), field.clear();
            rows.push_back(std::move(row)), row.clear();
        } else {
            field += c;
        }
    }
    EXPECT_FALSE(quoted) << "unterminated quoted field";
    if (!field.empty() || !row.empty()) row.push_back(field), rows.push_back(row);
    return rows;
}

std::size_t column(const Table& t, const std::string& name) {
    const auto& header = t.at(0);
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << "no column " << name;
    return static_cast<std::size_t>(it - header.begin());
}

TEST(CsvExport, IncidentsCommandReadsTheReviewFileAndLeavesTheRunAsItWas) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const std::vector<Incident> incidents = buildIncidents(test::tinyRun());
    IncidentNotesStore(path).save({incidents[1].begin, "Reseated the NIC.", RootCause::Nic, {"nic"}, 0});
    const std::string checksum = test::fileChecksum(path);
    const auto chain = runCliStdout("incidents --id " + std::to_string(incidents[1].id) + " " + path);
    ASSERT_EQ(chain.status, 0) << chain.output;
    EXPECT_NE(chain.output.find("notes: Reseated the NIC."), std::string::npos) << chain.output;
    EXPECT_NE(chain.output.find("confirmed cause: nic"), std::string::npos) << chain.output;
    const auto json = runCliStdout("incidents --json " + path);
    ASSERT_EQ(json.status, 0) << json.output;
    const auto parsed = nlohmann::json::parse(json.output);
    EXPECT_EQ(parsed.at(1).at("review").at("notes"), "Reseated the NIC.");
    EXPECT_FALSE(parsed.at(0).contains("review"));
    EXPECT_EQ(test::fileChecksum(path), checksum);
}

TEST(CsvExport, IncidentsOneRowEachWithNotesThatRoundTrip) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const std::vector<Incident> incidents = buildIncidents(test::tinyRun());
    ASSERT_GE(incidents.size(), 3u);
    const std::string note = "Swapped the GPU, \"HBM3\" errors again,\nsee ticket 4411, rack r0003";
    {
        IncidentNotesStore store(path);
        store.save({incidents[1].begin, note, RootCause::FaultyGpu, {"hbm", "repeat offender"}, 0});
    }
    const auto r = runCliStdout("incidents --csv " + path);
    ASSERT_EQ(r.status, 0) << r.output;
    const Table t = parseCsv(r.output);
    ASSERT_EQ(t.size(), incidents.size() + 1);  // the header, then one row per incident
    for (const auto& row : t) EXPECT_EQ(row.size(), t[0].size());
    const auto id = column(t, "id"), notes = column(t, "notes"), tags = column(t, "tags"), cause = column(t, "confirmed_cause");
    for (std::size_t i = 0; i < incidents.size(); ++i) EXPECT_EQ(t[i + 1][id], std::to_string(incidents[i].id));
    EXPECT_EQ(t[2][notes], note);
    EXPECT_EQ(t[2][tags], "hbm, repeat offender");
    EXPECT_EQ(t[2][cause], "faulty_gpu");
    EXPECT_EQ(t[1][notes], "");
    EXPECT_NEAR(std::stod(t[1][column(t, "time_to_recover_s")]), toSeconds(incidents[0].timeToRecover), 0.001);
}

TEST(CsvExport, SummaryIsTheLedgerPerDayAndAddsUp) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const auto r = runCliStdout("summary --csv " + path);
    ASSERT_EQ(r.status, 0) << r.output;
    const Table t = parseCsv(r.output);
    const GoodputLedger ledger = computeGoodput(test::tinyRun());
    ASSERT_EQ(t.size(), ledger.days.size() + 1);
    for (std::size_t d = 1; d < t.size(); ++d) {
        double parts = 0;
        for (const char* c : {"productive_s", "detection_s", "restart_s", "reload_s", "lost_work_s", "checkpoint_save_s",
                              "straggler_slowdown_s", "planned_s"})
            parts += std::stod(t[d][column(t, c)]);
        EXPECT_NEAR(parts, std::stod(t[d][column(t, "hours")]) * 3600, 0.05) << "day " << d;
        EXPECT_NEAR(std::stod(t[d][column(t, "ettr")]), ledger.days[d - 1].ettr(), 1e-6);
    }
}

TEST(CsvExport, StragglersOneRowPerRankWithAFigure) {
    ScratchDir dir;
    const std::string path = dir.file("traced.faultline");
    writeRunFile(test::tracedTinyRun(), path);
    const auto r = runCliStdout("stragglers --csv " + path);
    ASSERT_EQ(r.status, 0) << r.output;
    const Table t = parseCsv(r.output);
    const StragglerReport report = analyzeStragglers(test::tracedTinyRun());
    std::set<std::int32_t> ranks;
    for (const auto& s : report.ranks) ranks.insert(s.rank);
    for (const auto& s : analyzeStepTimes(test::tracedTinyRun().rankSteps).ranks) ranks.insert(s.rank);
    ASSERT_FALSE(ranks.empty());
    ASSERT_EQ(t.size(), ranks.size() + 1);
    // The worst straggler, as the text report ranks it, comes first.
    EXPECT_EQ(t[1][column(t, "rank")], std::to_string(report.ranks.front().rank));
}

TEST(CsvExport, ExportCsvWritesTheThreeTables) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const auto r = runCliStdout("export --csv " + dir.file("tables") + " " + path);
    ASSERT_EQ(r.status, 0) << r.output;
    for (const char* name : {"incidents.csv", "goodput_per_day.csv", "stragglers.csv"}) {
        std::ifstream in(dir.file("tables/") + name);
        EXPECT_TRUE(in.good()) << name;
    }
    std::ifstream in(dir.file("tables/incidents.csv"));
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), runCliStdout("incidents --csv " + path).output);
}

TEST(PerfettoExport, OneTrackPerKindAndOnePerTracedRank) {
    ScratchDir dir;
    const std::string path = dir.file("traced.faultline");
    // A small trace: 16 ranks over 40 steps keeps the parse quick in a debug build.
    ASSERT_EQ(runCliStdout("simulate --preset tiny --seed 11 --trace-ranks 16 --trace-steps 40 --trace-at 6h -q -o " + path).status, 0);
    const faultline::Run run = readRunFile(path);
    ASSERT_FALSE(run.collectives.empty());
    const auto r = runCliStdout("export --perfetto " + dir.file("run.json") + " " + path);
    ASSERT_EQ(r.status, 0) << r.output;
    std::ifstream in(dir.file("run.json"));
    const nlohmann::json trace = nlohmann::json::parse(in);  // throws on malformed JSON
    ASSERT_TRUE(trace["traceEvents"].is_array());
    std::map<std::string, int> runTracks;
    std::set<int> rankTracks;
    std::size_t instants = 0, downtimes = 0, collectives = 0;
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices;
    for (const auto& e : trace["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "thread_name") {
            const std::string name = e["args"]["name"];
            if (e["pid"] == 1) {
                if (!name.starts_with("Stragglers · lane ")) ++runTracks[name];  // overlapping episodes' lanes
            } else {
                rankTracks.insert(e["tid"].get<int>());
            }
        }
        if (ph == "i") ++instants;
        if (ph == "X" && e["cat"] == "downtime" && e.contains("args")) ++downtimes;
        if (ph == "X" && e["cat"] == "collective") ++collectives;
        if (ph == "X") {
            EXPECT_GE(e["dur"].get<double>(), 0);
            slices[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back({e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
        }
    }
    for (const std::string& kind : perfettoRunTracks()) EXPECT_EQ(runTracks[kind], 1) << kind;
    EXPECT_EQ(runTracks.size(), perfettoRunTracks().size());
    EXPECT_EQ(instants, run.failures.size());
    EXPECT_EQ(downtimes, run.downtimes.size());
    EXPECT_EQ(collectives, run.collectives.size());
    std::set<std::int32_t> traced;
    for (const auto& c : run.collectives) traced.insert(c.rank);
    EXPECT_EQ(rankTracks.size(), traced.size());
    EXPECT_EQ(trace["metadata"]["start_epoch_ns"], run.info.startEpochNs);
    // Slices on one track nest or follow each other, as trace viewers require.
    ASSERT_FALSE(slices.empty());
    for (auto& [track, list] : slices) {
        std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
        std::vector<double> open;
        for (const auto& [begin, end] : list) {
            while (!open.empty() && open.back() <= begin + 1e-3) open.pop_back();
            if (!open.empty()) {
                ASSERT_LE(end, open.back() + 1e-3) << "overlapping slices on track " << track.first << "/" << track.second << " at " << begin;
            }
            open.push_back(end);
        }
    }
}

TEST(PerfettoExport, MissingRunIsAnErrorAndNothingIsWritten) {
    ScratchDir dir;
    const auto r = runCliStdout("export --perfetto " + dir.file("x.json") + " " + dir.file("missing.faultline"));
    EXPECT_EQ(r.status, 1);
    EXPECT_FALSE(std::ifstream(dir.file("x.json")).good());
    EXPECT_EQ(runCliStdout("export " + dir.file("missing.faultline")).status, 2);
}

}  // namespace
}  // namespace faultline
