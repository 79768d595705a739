// Console logs: the recognition rate over every shape we have (our fixtures, one per shape,
// and the real console slices), and the speed and peak memory of importing a big log of a
// 2,048-rank job made of real lines interleaved by rank.
//   faultline_bench_console_logs [--mb N] [--keep PATH]   (default 2048 MB; --mb 0 skips the speed run)
#include "importers/importer.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace faultline;

namespace {

std::vector<std::string> listIn(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream list(s);
    for (std::string kind; std::getline(list, kind, ',');) {
        const std::size_t a = kind.find_first_not_of(' '), b = kind.find_last_not_of(' ');
        if (a != std::string::npos) out.push_back(kind.substr(a, b - a + 1));
    }
    return out;
}

struct Tally {
    int files = 0, recognised = 0, expected = 0, found = 0;
};

void score(const std::string& path, const std::vector<std::string>& kinds, Tally& t) {
    ++t.files;
    t.expected += static_cast<int>(kinds.size());
    ImportOptions options;
    options.year = 2024;
    try {
        const ImportResult r = importFiles({path}, options);
        const FileReport& f = r.summary.files.at(0);
        ++t.recognised;
        int found = 0;
        std::string missed;
        for (const std::string& k : kinds) {
            if (f.understoodByKind.count(k)) ++found;
            else missed += " " + k;
        }
        t.found += found;
        std::printf("  %-62.62s %-12s %d/%zu%s%s\n", std::filesystem::path(path).filename().c_str(), f.format.c_str(), found, kinds.size(),
                    missed.empty() ? "" : "  missed:", missed.c_str());
    } catch (const std::exception& e) {
        std::printf("  %-62.62s NOT RECOGNISED: %s\n", std::filesystem::path(path).filename().c_str(), e.what());
    }
}

void recognition() {
    Tally t;
    const std::string dir = std::string(FAULTLINE_IMPORTER_TESTDATA) + "/console_logs";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".log") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::printf("fixtures (%s):\n", dir.c_str());
    for (const auto& p : files) {
        std::ifstream in(p);
        std::string line, expect;
        while (std::getline(in, line) && line.rfind("# ", 0) == 0)
            if (line.rfind("# expect: ", 0) == 0) expect = line.substr(10);
        score(p.string(), listIn(expect), t);
    }
    const std::string real = std::string(FAULTLINE_REALDATA) + "/console_logs";
    if (std::filesystem::exists(real)) {
        std::printf("real console logs (%s):\n", real.c_str());
        std::ifstream table(dir + "/realdata_expected.tsv");
        for (std::string line; std::getline(table, line);) {
            if (line.empty() || line[0] == '#') continue;
            const std::size_t tab = line.find('\t');
            score(real + "/" + line.substr(0, tab), listIn(line.substr(tab + 1)), t);
        }
        score(real + "/41-m4-logs-tr141-try3-dmesg-hung-task.log", {}, t);
    } else {
        std::printf("real console logs: skipped, %s is absent\n", real.c_str());
    }
    std::printf("recognition: %d of %d files imported (%.1f%%); %d of %d expected events found with the right kind (%.1f%%)\n", t.recognised,
                t.files, 100.0 * t.recognised / t.files, t.found, t.expected, 100.0 * t.found / std::max(1, t.expected));
}

// A 2,048-rank job's console: every rank's NCCL and launcher lines behind "[rankN]:", rank
// 0's Megatron progress and checkpoints, and at the end a watchdog timeout all but one report.
void writeBigLog(const std::string& path, std::int64_t bytes) {
    constexpr int kRanks = 2048;
    std::ofstream out(path, std::ios::binary);
    std::string buf;
    buf.reserve(1 << 20);
    std::int64_t written = 0, line = 0, iteration = 0;
    long long second = 1'700'000'000;
    char tmp[512];
    while (written < bytes) {
        const int rank = static_cast<int>(line % kRanks);
        const int kind = static_cast<int>((line / kRanks) % 6);
        int n = 0;
        if (rank == 0 && kind == 0) {
            ++iteration;
            second += 20;
            std::time_t t = second;
            std::tm tm{};
            gmtime_r(&t, &tm);
            n = std::snprintf(tmp, sizeof tmp, "[rank0]:[%04d-%02d-%02d %02d:%02d:%02d] iteration %8lld/ 1000000 | consumed samples: %lld | elapsed time per iteration (ms): 20000.0 | learning rate: 1.0E-04 | lm loss: 2.1E+00 |\n",
                              tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(iteration), static_cast<long long>(iteration * 2048));
        } else if (kind == 1) {
            n = std::snprintf(tmp, sizeof tmp, "[rank%d]:node%04d:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] via P2P/IPC/read\n", rank, rank / 8, 1000 + rank, 2000 + rank, rank % 8, rank, rank % 8, (rank + 1) % kRanks, (rank + 1) % 8);
        } else if (kind == 2) {
            n = std::snprintf(tmp, sizeof tmp, "[rank%d]:time (ms) | forward-compute: 5000.12 | backward-compute: 10000.34 | batch-generator: 1.20 | layernorm-grads-all-reduce: 2.11\n", rank);
        } else if (kind == 3) {
            n = std::snprintf(tmp, sizeof tmp, "[rank%d]:[W1022 13:45:01.123456 %d ProcessGroupNCCL.cpp:2291] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now\n", rank, 3000 + rank);
        } else if (kind == 4) {
            n = std::snprintf(tmp, sizeof tmp, "[rank%d]: after %lld iterations memory (MB) | allocated: 10857.5625 | max allocated: 26118.2294921875 | reserved: 28560.0\n", rank, static_cast<long long>(iteration));
        } else {
            n = std::snprintf(tmp, sizeof tmp, "[rank%d]:Effective Tera Flops per GPU: 41.31 and total parameters 52.005 B\n", rank);
        }
        buf.append(tmp, static_cast<std::size_t>(n));
        written += n;
        ++line;
        if (buf.size() > (1 << 20) - 512) {
            out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    for (int rank = 0; rank < kRanks; ++rank) {
        if (rank == 1234) continue;  // the silent one
        const int n = std::snprintf(tmp, sizeof tmp, "[rank%d]:[E1114 22:20:00.000000 1 ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=99, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 milliseconds before timing out.\n", rank, rank);
        buf.append(tmp, static_cast<std::size_t>(n));
    }
    buf += "  world_size ........ 2048\n";
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void speed(std::int64_t mb, const std::string& keep) {
    const std::string path = keep.empty() ? (std::filesystem::temp_directory_path() / "faultline_bench_console.log").string() : keep;
    auto t0 = std::chrono::steady_clock::now();
    writeBigLog(path, mb * 1024 * 1024);
    const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto size = std::filesystem::file_size(path);
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    t0 = std::chrono::steady_clock::now();
    ImportOptions options;
    options.year = 2023;
    const ImportResult r = importFiles({path}, options);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const FileReport& f = r.summary.files.at(0);
    // CPU time says how much work the import was, whatever else the machine was doing; the
    // wall time over it says how well the import used the cores.
    const auto cpu = [](const rusage& u) {
        return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    const double cpuSecs = cpu(after) - cpu(before);
    std::printf("speed: %.0f MB log of 2,048 ranks (written in %.1f s): imported and the run built in %.2f s wall (%.0f MB/s), %.2f s CPU "
                "(user+sys, %.2f cores busy on %u), peak RSS %.0f MB (%.0f MB before the import); "
                "%lld lines, %lld understood, %zu steps, %zu failures, suspects of the timeout: %zu rank(s)\n",
                static_cast<double>(size) / 1048576.0, gen, secs, static_cast<double>(size) / 1048576.0 / secs, cpuSecs, cpuSecs / secs,
                std::thread::hardware_concurrency(), static_cast<double>(after.ru_maxrss) / 1024.0, static_cast<double>(before.ru_maxrss) / 1024.0,
                static_cast<long long>(f.linesRead), static_cast<long long>(f.linesUnderstood), r.run.steps.size(), r.run.failures.size(),
                r.run.failures.empty() ? std::size_t{0} : r.run.failures.back().suspectRanks.size());
    if (keep.empty()) std::filesystem::remove(path);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t mb = 2048;
    std::string keep;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--mb") == 0) mb = std::atoll(argv[++i]);
        else if (std::strcmp(argv[i], "--keep") == 0) keep = argv[++i];
    }
    recognition();
    if (mb > 0) speed(mb, keep);
}
