// Sharded import and merge at scale: a 1,024-rank traced simulated run written as one event
// file per rank, imported in 64 shards (as 64 Slurm array tasks would), then merged. Prints
// the shards' import time, the merge's time and peak memory, and the projected wall time of
// a 16,384-rank x 200 MB profiler window on 128 array tasks: reading at the Kineto reader's
// per-core rate (measure it with faultline_bench_importers --ranks 8) on each task's cores,
// then a merge scaled from this one by the collectives kept.
//
//   faultline_bench_shards [--ranks N] [--steps S] [--shards K] [--kineto-mb-per-core R]
//                          [--cores-per-task C] [--keep DIR]
#include "simulator/collective_event.h"
#include "importers/importer.h"
#include "model/run_file.h"
#include "simulator/simulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::uint64_t writeRankFiles(const faultline::Run& run, int ranks, const fs::path& dir, std::vector<std::string>& paths) {
    std::vector<std::ofstream> out;
    for (int r = 0; r < ranks; ++r) {
        paths.push_back((dir / ("rank" + std::to_string(r) + ".jsonl")).string());
        out.emplace_back(paths.back());
    }
    for (const faultline::CollectiveRecord& c : run.collectives)
        out[static_cast<std::size_t>(c.rank)] << faultline::collectiveEvent(run, c).dump() << "\n";
    std::uint64_t bytes = 0;
    for (auto& o : out) o.close();
    for (const std::string& p : paths) bytes += fs::file_size(p);
    return bytes;
}

}  // namespace

int main(int argc, char** argv) {
    int ranks = 1024, steps = 100, shards = 64;
    double kinetoMbPerCore = 750, coresPerTask = 8;
    std::string keep;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--ranks") && i + 1 < argc) ranks = std::stoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::stoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--shards") && i + 1 < argc) shards = std::stoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--kineto-mb-per-core") && i + 1 < argc) kinetoMbPerCore = std::stod(argv[++i]);
        else if (!std::strcmp(argv[i], "--cores-per-task") && i + 1 < argc) coresPerTask = std::stod(argv[++i]);
        else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc) keep = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--ranks N] [--steps S] [--shards K] [--kineto-mb-per-core R] [--cores-per-task C] [--keep DIR]\n", argv[0]);
            return 2;
        }
    }
    try {
        const fs::path dir = keep.empty() ? fs::temp_directory_path() / ("faultline_bench_shards_" + std::to_string(::getpid())) : fs::path(keep);
        fs::create_directories(dir / "traces");
        fs::create_directories(dir / "shards");
        faultline::SimulationParams p = faultline::simulationPreset("tiny");
        p.fabric.gpus = std::max(p.fabric.gpus, ranks);
        p.trace = {.ranks = ranks, .steps = steps, .begin = 6 * faultline::kHour};
        const faultline::Run run = faultline::simulate(p);
        std::vector<std::string> inputs;
        const std::uint64_t bytes = writeRankFiles(run, ranks, dir / "traces", inputs);
        std::printf("%d rank files, %.1f MB, %zu collective records\n", ranks, static_cast<double>(bytes) / 1e6, run.collectives.size());

        double slowest = 0, total = 0;
        std::vector<std::string> parts;
        for (int s = 0; s < shards; ++s) {
            const auto t0 = Clock::now();
            parts.push_back((dir / "shards" / ("part" + std::to_string(s) + ".shard")).string());
            faultline::writeShardFile(faultline::importShard({(dir / "traces").string()}, {}, s, shards), parts.back());
            const double secs = secondsSince(t0);
            slowest = std::max(slowest, secs);
            total += secs;
        }
        std::printf("import in %d shards: %.2f s in all, slowest shard %.3f s (%.1f MB of JSON Lines events each)\n", shards, total, slowest,
                    static_cast<double>(bytes) / 1e6 / shards);

        // The merge in a process of its own, so its peak memory is its own.
        const std::string out = (dir / "merged.faultline").string();
        const auto t0 = Clock::now();
        const pid_t child = ::fork();
        if (child == 0) {
            const faultline::ImportResult merged = faultline::mergeShards(parts, {});
            faultline::writeRunFile(merged.run, out);
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        const double mergeSecs = secondsSince(t0);
        rusage children{};
        ::getrusage(RUSAGE_CHILDREN, &children);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("the merge failed");
        std::printf("merge of %d shards: %.2f s, peak RSS %ld MB, run file %.1f MB\n", shards, mergeSecs, children.ru_maxrss / 1024,
                    static_cast<double>(fs::file_size(out)) / 1e6);

        // 16,384 ranks x 200 MB on 128 array tasks: each task reads 128 files, 25.6 GB, on its
        // cores. The merge handles what the shards kept: collectives, which grow with the ranks.
        const double tasks = 128, files = 16384, fileMb = 200;
        const double taskMb = files / tasks * fileMb;
        const double importWall = taskMb / (kinetoMbPerCore * coresPerTask);
        const double mergeWall = mergeSecs * (files / ranks);
        std::printf("projection, 16,384 ranks x 200 MB (%.1f TB) on 128 tasks of %.0f cores at %.0f MB/s per core: %.0f MB per task in %.0f s "
                    "(%.1f min) if the file system keeps up (%.1f GB/s in all), then a merge of about %.0f s for %.0f x the collectives: "
                    "%.1f min in all\n",
                    files * fileMb / 1e6, coresPerTask, kinetoMbPerCore, taskMb, importWall, importWall / 60,
                    tasks * kinetoMbPerCore * coresPerTask / 1e3, mergeWall, files / ranks, (importWall + mergeWall) / 60);
        if (keep.empty()) fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
