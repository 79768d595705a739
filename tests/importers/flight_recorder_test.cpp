// Flight Recorder: nvidia-resiliency-ext's 16-rank MoE dumps (pickle), the JSON variant,
// and hostile pickles that try to run code.
#include "import_test_util.h"

#include "analysis/hang_analysis.h"
#include "analysis/rank_places.h"
#include "importers/pytorch/pickle_reader.h"
#include "importers/run_builder.h"
#include "importers/run_collectives.h"
#include "model/run_file.h"
#include "model/unplaced_hosts.h"
#include "importers/text/read_whole_file.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace faultline {
namespace {

using test::kFr;
using test::errorOf;
using test::fixture;
using test::importPaths;
using test::realData;

TEST(FlightRecorder, Rank0FirstCollectiveIsItsPipelineSend) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kFr + "gpu_error_1st/_dump_0")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "flight-recorder");
    EXPECT_EQ(f.counts.at("collectives"), 20);
    EXPECT_EQ(f.counts.at("collectives scheduled"), 20);
    EXPECT_EQ(f.ranks, (std::set<std::int32_t>{0}));
    const CollectiveRecord& c = r.run.collectives.at(0);
    // 'profiling_name': 'nccl:send 0->3', p2p_seq_id 11981, time_created_ns 1758610505592849034,
    // input_sizes [[4096, 1, 5120]] BFloat16, process group '43' = ranks [0, 4, 8, 12].
    EXPECT_EQ(r.run.collectiveOps[static_cast<std::size_t>(c.op)], "send");
    EXPECT_EQ(c.seq, 11981);
    EXPECT_EQ(r.run.info.startEpochNs + c.enter, 1758610505592849034LL);
    EXPECT_EQ(c.bytes, 4096LL * 5120 * 2);
    const ProcessGroup& g = r.run.processGroups[static_cast<std::size_t>(c.group)];
    EXPECT_EQ(g.name, "43");
    EXPECT_EQ(g.ranks, (std::vector<std::int32_t>{0, 4, 8, 12}));
    EXPECT_EQ(r.run.rankToGpu.size(), 16u);  // pg_config's default_pg holds ranks 0..15
}

TEST(FlightRecorder, SixteenDumpsShowRank12BehindInTheExpertGroup) {
    FAULTLINE_REQUIRE_REALDATA();
    // The reference analysis names rank 12 missing from an all_to_all of process group 74.
    const ImportResult r = importPaths({realData(kFr + "gpu_error_1st")});
    std::int64_t total = 0;
    for (const FileReport& f : r.summary.files)
        if (f.format == "flight-recorder") total += f.counts.at("collectives");
    EXPECT_EQ(total, 289);
    std::map<std::int32_t, std::int64_t> lastSeq;
    for (const CollectiveRecord& c : r.run.collectives) {
        const ProcessGroup& g = r.run.processGroups[static_cast<std::size_t>(c.group)];
        if (g.name != "74" || r.run.collectiveOps[static_cast<std::size_t>(c.op)] != "all_to_all") continue;
        lastSeq[c.rank] = std::max(lastSeq[c.rank], c.seq);
    }
    EXPECT_EQ(lastSeq, (std::map<std::int32_t, std::int64_t>{{12, 20536}, {13, 20538}, {14, 20538}, {15, 20538}}));
}

TEST(FlightRecorder, JsonVariantReadsTheSameAsThePickle) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult fromJson = importPaths({fixture("fr_json_gpu_error_1st_rank_14.json")});
    const ImportResult fromPickle = importPaths({realData(kFr + "gpu_error_1st/_dump_14")});
    EXPECT_EQ(fromJson.summary.files[0].format, "flight-recorder-json");
    EXPECT_EQ(fromJson.summary.files[0].counts.at("collectives"), 43);
    EXPECT_EQ(fromJson.summary.files[0].ranks, (std::set<std::int32_t>{14}));
    ASSERT_EQ(fromJson.run.collectives.size(), fromPickle.run.collectives.size());
    for (std::size_t i = 0; i < fromJson.run.collectives.size(); ++i) {
        EXPECT_EQ(fromJson.run.collectives[i].seq, fromPickle.run.collectives[i].seq);
        EXPECT_EQ(fromJson.run.collectives[i].bytes, fromPickle.run.collectives[i].bytes);
    }
    EXPECT_EQ(fromJson.run.info.startEpochNs, fromPickle.run.info.startEpochNs);
}

// The run's collectives are the dumps' entries merged in time order; ties keep the input
// order (traces, then dumps in file order, each dump in its own order), as one stable sort of
// them all would, also for a dump whose entries are out of time order.
TEST(FlightRecorder, CollectivesMergeInTimeOrderTiesInInputOrder) {
    ImportedEvents events;
    auto dump = [&](std::int32_t rank, std::vector<std::pair<std::int64_t, EpochNs>> seqAndTime) {
        FlightRecorderDump d;
        d.rank = rank;
        for (const auto& [seq, t] : seqAndTime) {
            FlightRecorderEntryText e;
            e.processGroup = "0";
            e.collectiveSeqId = seq;
            e.profilingName = "nccl:all_reduce";
            e.timeCreatedNs = t;
            d.add(e);
        }
        events.flightRecorderDumps.push_back(std::move(d));
    };
    dump(2, {{0, 100}, {1, 300}});
    dump(0, {{0, 300}, {1, 100}, {2, 200}});
    dump(1, {{0, 100}, {1, 300}});
    ImportedCollective traced;
    traced.rank = 5;
    traced.group = "0";
    traced.op = "all_reduce";
    traced.enter = traced.exit = 300;
    traced.seq = 7;
    events.collectives.push_back(traced);
    faultline::Run run;
    addCollectives(events, collectiveSpan(events), 100, run);
    std::vector<std::tuple<std::int32_t, std::int64_t, Nanos>> got;
    for (const CollectiveRecord& c : run.collectives) got.emplace_back(c.rank, c.seq, c.enter);
    const std::vector<std::tuple<std::int32_t, std::int64_t, Nanos>> want = {{2, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 2, 100},
                                                                             {5, 7, 200}, {2, 1, 200}, {0, 0, 200}, {1, 1, 200}};
    EXPECT_EQ(got, want);
}

// Each core places the records of its own run of dumps, from where that run's part of each
// slice of time begins, and each dump is emptied once its records are placed: the order must
// be one stable sort's still, ties between the runs included.
TEST(FlightRecorder, ManyCollectivesKeepOneStableTimeOrderWhenPlacedOnEveryCore) {
    ImportedEvents events;
    std::vector<std::tuple<EpochNs, std::int32_t, std::int64_t>> want;  // (enter, rank, seq) in input order
    constexpr int kDumps = 40, kEntries = 28000;                        // 1.12 million records
    std::uint64_t x = 12345;
    for (int d = 0; d < kDumps; ++d) {
        FlightRecorderDump dump;
        dump.rank = (d * 7) % kDumps;  // not in rank order: ties go in input order
        FlightRecorderEntry e;
        e.group = dump.internGroup("0", "default_pg", 0);
        e.op = dump.internOp("nccl:all_reduce");
        e.input = dump.internTensors({});
        for (int i = 0; i < kEntries; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            e.collectiveSeqId = i;
            e.timeCreatedNs = 1000 + static_cast<EpochNs>((x >> 33) % 50000);  // many ties
            dump.entries.push_back(e);
            want.emplace_back(e.timeCreatedNs, dump.rank, e.collectiveSeqId);
        }
        events.flightRecorderDumps.push_back(std::move(dump));
    }
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    faultline::Run run;
    addCollectives(events, collectiveSpan(events), 1000, run);
    ASSERT_EQ(run.collectives.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const CollectiveRecord& c = run.collectives[i];
        ASSERT_EQ(std::make_tuple(c.enter + 1000, c.rank, c.seq), want[i]) << "record " << i;
    }
    for (const FlightRecorderDump& d : events.flightRecorderDumps) EXPECT_TRUE(d.entries.empty());
}

// Dumps alone name no host: the hall drawn for a job of 16,384 ranks has 2,048 hosts of eight
// GPUs, two to a rack, and its 1,024 racks in rows of 16 and zones of 128 as a built fabric's,
// not in one row too long and thin to see a GPU in.
TEST(FlightRecorder, ADerivedHallLaysItsRacksInRowsAndZones) {
    ImportedEvents events;
    events.worldSize = 16384;
    events.collectives.push_back({0, "0", {0, 1}, "allreduce", "Float", 1000, 2000, 4, 0});
    const BuildResult built = buildRun(events, std::nullopt, "derived");
    const Topology& t = built.run.topology;
    ASSERT_TRUE(built.derivedTopology);
    EXPECT_EQ(t.hosts.size(), 2048u);
    ASSERT_EQ(t.racks.size(), 1024u);
    ASSERT_EQ(t.zones.size(), 8u);
    EXPECT_EQ(t.zones[7].name, kUnplacedZoneName);  // no file names a host: every rank is unplaced
    for (std::size_t r = 0; r < t.racks.size(); ++r) {
        EXPECT_EQ(t.racks[r].zone, static_cast<std::int32_t>(r / 128)) << t.racks[r].name;
        EXPECT_EQ(t.racks[r].row, static_cast<std::int32_t>(r % 128 / 16)) << t.racks[r].name;
        EXPECT_EQ(t.racks[r].position, static_cast<std::int32_t>(r % 16)) << t.racks[r].name;
    }
}

// A 16-rank job whose log places ranks 0-3 on node07 only: node07 stands in the hall as the
// evidence names it; the other ranks are drawn apart in a zone of their own, labelled as unplaced,
// and named by their rank with "(host unknown)", never as an invented host "ranks8-15".
TEST(FlightRecorder, RanksNoFilePlacesAreDrawnApartAsUnplaced) {
    ImportedEvents events;
    events.worldSize = 16;
    for (std::int32_t r = 0; r < 4; ++r) events.placements.push_back({r, "node07", r});
    events.collectives.push_back({0, "0", {0, 1}, "allreduce", "Float", 1000, 2000, 4, 0});
    const BuildResult built = buildRun(events, std::nullopt, "mixed");
    const faultline::Run& run = built.run;
    const Topology& t = run.topology;
    ASSERT_EQ(t.zones.size(), 2u);
    EXPECT_EQ(t.zones[0].name, "zone0");
    EXPECT_EQ(t.zones[1].name, kUnplacedZoneName);
    ASSERT_FALSE(t.hosts.empty());
    EXPECT_EQ(t.hosts.front().name, "node07");
    for (const Host& h : t.hosts) {
        const std::int32_t zone = t.racks[static_cast<std::size_t>(h.rack)].zone;
        EXPECT_EQ(zone, isUnplacedHost(h) ? 1 : 0) << h.name;
        EXPECT_EQ(h.name.find("ranks") == 0, false) << h.name;
    }
    EXPECT_EQ(rankPlaceText(run, 2), "rank 2 on node07 GPU 2");
    for (std::int32_t r = 4; r < 16; ++r) {
        EXPECT_EQ(t.gpuName(run.rankToGpu.at(static_cast<std::size_t>(r))), "rank " + std::to_string(r) + " (host unknown)");
        EXPECT_EQ(rankPlaceText(run, r), "rank " + std::to_string(r) + " (host unknown)");
    }
}

TEST(SafePickle, PickleThatCallsOsSystemIsRefusedAndNothingRuns) {
    std::filesystem::remove("/tmp/faultline_pwned");
    const std::string path = fixture("fr_dump_calls_os_system_3");
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte 47: refused pickle opcode GLOBAL"), std::string::npos) << msg;
    EXPECT_FALSE(std::filesystem::exists("/tmp/faultline_pwned"));
}

TEST(SafePickle, StackGlobalEvalIsRefused) {
    const std::string path = fixture("fr_dump_stack_global_eval_5");
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte 44: refused pickle opcode STACK_GLOBAL"), std::string::npos) << msg;
}

TEST(SafePickle, MemoBombAndSelfReferenceStopWithAnError) {
    const std::string bomb = errorOf([] { importPaths({fixture("fr_dump_memo_bomb_1")}); });
    EXPECT_NE(bomb.find("expands to far more values than its size allows"), std::string::npos) << bomb;
    const std::string self = errorOf([] { importPaths({fixture("fr_dump_self_reference_2")}); });
    EXPECT_NE(self.find("nests deeper than"), std::string::npos) << self;
}

TEST(SafePickle, EveryPrefixOfARealDumpFailsCleanly) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::string whole = readWholeFile(realData(kFr + "lock_gil_1st/_dump_9"));
    ASSERT_FALSE(whole.empty());
    for (std::size_t cut = 0; cut < whole.size(); ++cut) {
        const std::string msg = errorOf([&] { readPickle(std::string_view(whole).substr(0, cut), "dump"); });
        EXPECT_EQ(msg.rfind("dump: ", 0), 0u) << "cut at " << cut << ": " << msg;
    }
    EXPECT_NO_THROW(readPickle(whole, "dump"));
}

TEST(SafePickle, DataOpcodesDecode) {
    // {'a': [1, -2, 3.5, None, True, (b'x', 'y')], 7: 300000000000}
    const std::string hex = "80027d7100285801000000615d7101284b014afeffffff47400c0000000000004e8843017858010000007986654b078a0500b864d945752e";
    std::string p;
    for (std::size_t i = 0; i < hex.size(); i += 2) p += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    const nlohmann::json j = readPickle(p, "p");
    EXPECT_EQ(j["a"], nlohmann::json::parse(R"([1, -2, 3.5, null, true, ["x", "y"]])"));
    EXPECT_EQ(j["7"], 300000000000LL);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// The hang is an incident of the run: rank 12's GPU failed at the all_to_all it never
// joined, ranks 13-15 wait in it, and the run is down from then to its end.
TEST(FlightRecorder, AnImportedHangIsAnIncidentThatEndsTraining) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kFr + "gpu_error_1st")});
    ASSERT_TRUE(r.run.hang);
    EXPECT_EQ(r.run.hang->culprits, (std::vector<std::int32_t>{12}));
    EXPECT_EQ(r.run.hang->dumps, 16);
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& f = r.run.failures[0];
    EXPECT_EQ(f.cause, RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(f.suspectRanks, (std::vector<std::int32_t>{12}));
    EXPECT_EQ(f.ranks, (std::vector<std::int32_t>{13, 14, 15}));
    EXPECT_EQ(f.gpus, (std::vector<std::int32_t>{r.run.rankToGpu[12]}));
    EXPECT_EQ(f.detail, "NCCL hang (Flight Recorder): rank 12 never joined all_to_all #20537 in process group 74 "
                        "(EXPERT_MODEL_PARALLEL_GROUP); ranks 13-15 wait in it");
    const HangFinding& origin = r.run.hang->findings[r.run.hang->origins.at(0).finding];
    EXPECT_EQ(f.time, origin.enqueuedNs - r.run.info.startEpochNs);
    ASSERT_EQ(r.run.downtimes.size(), 1u);
    const Downtime& d = r.run.downtimes[0];
    EXPECT_EQ(d.failure, 0);
    EXPECT_FALSE(d.planned);
    EXPECT_EQ(d.begin, f.time);
    EXPECT_EQ(d.end, r.run.info.duration);
    EXPECT_LT(d.begin, d.end);

    // Written and read back, the run keeps the same analysis.
    test::ScratchDir dir;
    const std::string path = dir.file("fr.faultline");
    writeRunFile(r.run, path);
    const faultline::Run back = readRunFile(path);
    ASSERT_TRUE(back.hang);
    EXPECT_EQ(hangToText(*back.hang), hangToText(*r.run.hang));
    EXPECT_EQ(back.collectives.size(), r.run.collectives.size());
    EXPECT_EQ(back.failures.at(0).detail, f.detail);
}

}  // namespace
}  // namespace faultline
