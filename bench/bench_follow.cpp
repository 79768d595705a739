// Following a running job's folder (issue 40): a writer grows 2,048 ranks' console logs at
// 50 MB/s in all for 20 s while a FolderFollower looks at the folder as `faultline-cli import
// --follow` does (a look, then the next once the folder changed and settled: the CLI's own
// wait, cli/folder_changes.h, --settle MS as `--settle`, 0 for a look per change). Prints
// the MB/s kept up with, the lag to the end of the files once the writer stops, the longest
// look, and the follower's CPU (getrusage user+sys of the process less the writer's own thread,
// over the wall time): the goal is keeping up with under one core.
//   faultline_bench_follow [--ranks N] [--mbps N] [--seconds N] [--settle MS] [--dir PATH]
#include "importers/folder_follower.h"

#include "cli/folder_changes.h"
#include "cli/import_follow.h"

#include "analysis/stored_figures.h"
#include "importers/importer.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using namespace faultline;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double cpuOf(const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// One rank's next line: its progress, NCCL and memory lines, each dated, as a Megatron job
// prints them behind torchrun's "[rankN]:".
int lineOf(char* out, std::size_t size, int rank, std::int64_t n) {
    // One line a second of the job's clock, dated in full: a log of more than two hours goes
    // on past midnight into the next day, as a real one does.
    const std::time_t second = 1'700'000'000 + n;
    std::tm at{};
    gmtime_r(&second, &at);
    switch (n % 3) {
        case 0:
            return std::snprintf(out, size, "[rank%d]:[%04d-%02d-%02d %02d:%02d:%02d] iteration %8lld/ 1000000 | consumed samples: %lld | elapsed time per iteration (ms): 1000.0 | learning rate: 1.0E-04 | lm loss: 2.1E+00 |\n",
                                 rank, at.tm_year + 1900, at.tm_mon + 1, at.tm_mday, at.tm_hour, at.tm_min, at.tm_sec, static_cast<long long>(n / 3 + 1), static_cast<long long>((n / 3 + 1) * 1024));
        case 1:
            return std::snprintf(out, size, "[rank%d]:node%04d:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] via P2P/IPC/read\n", rank, rank / 8,
                                 1000 + rank, 2000 + rank, rank % 8, rank, rank % 8, rank + 1, (rank + 1) % 8);
        default:
            return std::snprintf(out, size, "[rank%d]: after %lld iterations memory (MB) | allocated: 10857.5625 | max allocated: 26118.2294921875 | reserved: 28560.0\n",
                                 rank, static_cast<long long>(n / 3 + 1));
    }
}

// Grows every rank's log by whole lines, the same number of bytes a second in all, for as long
// as it is told.
class Writer {
public:
    Writer(const fs::path& dir, int ranks, double bytesPerSecond) : m_bytesPerSecond(bytesPerSecond), m_lines(static_cast<std::size_t>(ranks), 0) {
        rlimit files{};
        getrlimit(RLIMIT_NOFILE, &files);
        files.rlim_cur = std::max<rlim_t>(files.rlim_cur, std::min<rlim_t>(files.rlim_max, static_cast<rlim_t>(ranks) + 256));
        setrlimit(RLIMIT_NOFILE, &files);
        for (int r = 0; r < ranks; ++r) {
            char name[32];
            std::snprintf(name, sizeof name, "rank%04d.log", r);
            const int fd = ::open((dir / name).c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd < 0) {
                std::perror(name);
                std::exit(2);
            }
            m_fds.push_back(fd);
        }
    }
    ~Writer() {
        for (int fd : m_fds) ::close(fd);
    }

    // Writes at the rate for `duration` seconds, then sets `done`; the CPU the writer took
    // (its own thread).
    double run(double duration, std::atomic<bool>& done) {
        const auto start = Clock::now();
        std::string buf;
        char line[512];
        std::size_t rank = 0;
        for (double elapsed = 0; (elapsed = seconds(Clock::now() - start)) < duration;) {
            const double due = elapsed * m_bytesPerSecond;
            // A few lines to each rank in turn, until the bytes due are written.
            while (static_cast<double>(m_written) < due) {
                buf.clear();
                for (int k = 0; k < 4; ++k) buf.append(line, static_cast<std::size_t>(lineOf(line, sizeof line, static_cast<int>(rank), m_lines[rank]++)));
                if (::write(m_fds[rank], buf.data(), buf.size()) != static_cast<ssize_t>(buf.size())) std::perror("write");
                m_written += buf.size();
                rank = (rank + 1) % m_fds.size();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        rusage self{};
        getrusage(RUSAGE_THREAD, &self);
        done = true;
        return cpuOf(self);
    }
    std::uint64_t written() const { return m_written; }

private:
    double m_bytesPerSecond;
    std::vector<int> m_fds;
    std::vector<std::int64_t> m_lines;
    std::uint64_t m_written = 0;
};

}  // namespace

int main(int argc, char** argv) {
    int ranks = 2048;
    double mbps = 50, duration = 20, settleMs = 250;
    std::string dirArg;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--ranks") ranks = std::atoi(argv[i + 1]);
        else if (a == "--mbps") mbps = std::atof(argv[i + 1]);
        else if (a == "--seconds") duration = std::atof(argv[i + 1]);
        else if (a == "--dir") dirArg = argv[i + 1];
        else if (a == "--settle") settleMs = std::atof(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: faultline_bench_follow [--ranks N] [--mbps N] [--seconds N] [--settle MS] [--dir PATH]\n");
            return 2;
        }
    }
    const fs::path root = dirArg.empty() ? fs::temp_directory_path() / ("faultline_bench_follow-" + std::to_string(::getpid())) : fs::path(dirArg);
    fs::remove_all(root);
    fs::create_directories(root / "job");

    Writer writer(root / "job", ranks, mbps * 1048576.0);
    std::atomic<bool> done{false};
    double writerCpu = 0;
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = Clock::now();
    std::thread writing([&] { writerCpu = writer.run(duration, done); });

    ImportOptions options;
    options.year = 2023;
    FolderFollower follower({(root / "job").string()}, (root / "live.faultline").string(), options);
    cli::FolderChanges changes({(root / "job").string()});
    cli::FollowSettle settle(static_cast<std::int64_t>(settleMs * 1e6), cli::FollowSettings{}.maxDelayNs);
    const volatile std::sig_atomic_t never = 0;  // the bench ends when a look has caught up
    int looks = 0, failed = 0;
    double longestLook = 0;
    Clock::time_point stoppedAt{};
    std::uint64_t writtenAtStop = 0;
    std::string lastError;
    bool stopped = false;
    for (;;) {
        if (!stopped && done.load()) {
            writing.join();
            stopped = true;
            // When it stopped, to the look's precision: its last bytes were written then.
            stoppedAt = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(duration));
            writtenAtStop = writer.written();
        }
        const auto lookStart = Clock::now();
        const bool caughtUp = stopped;  // this look begins after every byte was written
        try {
            const FolderFollower::Look look = follower.look(false);
            changes.watch(look.folders);
            std::printf("follow: look %d: read %.0f MB of %zu files in %.2f s, built the run in %.2f s, wrote it in %.2f s\n", looks + 1,
                        static_cast<double>(look.bytesRead) / 1048576.0, look.filesRead, look.readSeconds, look.buildSeconds, look.writeSeconds);
        } catch (const std::exception& e) {
            ++failed;
            lastError = e.what();
        }
        ++looks;
        longestLook = std::max(longestLook, seconds(Clock::now() - lookStart));
        // The first look begun after the writer stopped has read every byte (its lines all end).
        if (caughtUp) break;
        waitForLook(changes, settle, cli::FollowSettings{}.pollNs, never);
    }
    const auto end = Clock::now();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const double wall = seconds(end - start), writing_s = seconds(stoppedAt - start), lag = seconds(end - stoppedAt);
    const double followerCpu = cpuOf(after) - cpuOf(before) - writerCpu;
    const double mb = static_cast<double>(writtenAtStop) / 1048576.0;
    std::printf("follow: %d ranks' logs grown %.0f MB in %.1f s (%.1f MB/s written); %d looks (%d failed%s%s), the longest %.2f s\n", ranks, mb, writing_s,
                mb / writing_s, looks, failed, lastError.empty() ? "" : ": ", lastError.substr(0, 200).c_str(), longestLook);
    std::printf("follow: kept up with %.1f MB/s (all bytes read %.2f s after the writer stopped: the lag to the end of the files)\n", mb / wall, lag);
    std::printf("follow: follower CPU %.2f s user+sys over %.1f s wall = %.2f cores (writer %.2f s; %u cores here; settle %.0f ms)\n", followerCpu, wall,
                followerCpu / wall, writerCpu, std::thread::hardware_concurrency(), settleMs);

    // What one look of the finished folder costs, step by step: a look reads each changed
    // file whole, builds the run from every file's events and writes the run file whole.
    auto t = Clock::now();
    const ListedImport listed = listImportFiles({(root / "job").string()}, options);
    std::vector<std::size_t> orders(listed.files.size());
    for (std::size_t i = 0; i < orders.size(); ++i) orders[i] = i;
    ReadImport read{readListedFiles(listed.files, orders, options), listed.runName, listed.label, listed.warnings};
    const double readSecs = seconds(Clock::now() - t);
    t = Clock::now();
    ImportResult built = buildReadImport(std::move(read), {}, options);
    const double buildSecs = seconds(Clock::now() - t);
    t = Clock::now();
    writeRunFileWithFigures(built.run, (root / "once.faultline").string());
    const double writeSecs = seconds(Clock::now() - t);
    t = Clock::now();
    const StoredFigures figures = storedFigures(built.run);
    std::printf("follow: the run's stored figures worked out in %.2f s\n", seconds(Clock::now() - t));
    t = Clock::now();
    const std::size_t kept = built.run.rankSteps.size() - built.run.rankSteps.size() / 20;
    updateRunFileWithFigures(built.run, (root / "once.faultline").string(), kept);
    const double updateSecs = seconds(Clock::now() - t);
    std::printf("follow: one look of the finished folder (%zu files, %.0f MB): listing and reading %.2f s, building the run %.2f s (%zu steps), "
                "writing the run file %.2f s whole, %.2f s brought up to date (its last 5%% of %zu rank steps new)\n",
                listed.files.size(), mb, readSecs, buildSecs, built.run.steps.size(), writeSecs, updateSecs, built.run.rankSteps.size());
    if (dirArg.empty()) fs::remove_all(root);
    return 0;
}
