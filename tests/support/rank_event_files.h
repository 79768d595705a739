#pragma once
// The traced tiny run (test_runs.h) as the per-rank event files a profiler would leave: what
// the sharded-import tests of the importers and of the CLI split and merge.
#include "simulator/collective_event.h"
#include "test_runs.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace faultline::test {

// Per-rank event files (JSON Lines) of the traced simulated run's first 16 ranks over its
// first 100 steps, as a cluster's profiler would leave one file per rank.
inline std::vector<std::string> writeRankFiles(const ScratchDir& dir) {
    const Run& run = tracedTinyRun();
    constexpr std::int32_t kRanks = 16;
    std::vector<std::ofstream> out;
    std::vector<std::string> paths;
    for (std::int32_t r = 0; r < kRanks; ++r) {
        paths.push_back(dir.file("rank" + std::to_string(r) + ".jsonl"));
        out.emplace_back(paths.back());
        out.back() << nlohmann::json{{"kind", "placement"}, {"rank", r}, {"host", "node" + std::to_string(r / 8)}, {"gpu", r % 8}}.dump() << "\n";
    }
    for (const CollectiveRecord& c : run.collectives)
        if (c.rank < kRanks && c.seq < 400) out[static_cast<std::size_t>(c.rank)] << collectiveEvent(run, c).dump() << "\n";
    return paths;
}

}  // namespace faultline::test
