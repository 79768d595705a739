// Hang view target: interactive at 16,384 lanes. A job of 16,384 ranks, each with
// --collectives collectives (default 200) in one group, whose rank 9,001 never joined the
// last: everyone else waits for it. Prints the time to lay the lanes out (what opening the
// hang window costs) and the time a redraw takes at the top, middle and bottom of the list,
// as a wheel scroll there would.
// Run from an optimised build: build/bench/bin/faultline_bench_hang_view [--collectives N]
#include "model/collective_lanes.h"
#include "model/time.h"
#include "views/hang_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using namespace faultline;

std::shared_ptr<const Run> hungJob(std::int32_t ranks, std::int64_t collectives, std::int32_t culprit) {
    auto run = std::make_shared<Run>();
    run->info = {"hang bench", 1'700'000'000'000'000'000, (collectives + 10) * kSecond, "bench"};
    run->collectiveOps = {"all_reduce"};
    std::vector<std::int32_t> all(static_cast<std::size_t>(ranks));
    for (std::int32_t r = 0; r < ranks; ++r) all[static_cast<std::size_t>(r)] = r;
    run->processGroups = {{"0", all}};
    run->rankToGpu = all;
    run->collectives.reserve(static_cast<std::size_t>(ranks * collectives));
    for (std::int64_t seq = 0; seq < collectives; ++seq)
        for (std::int32_t r = 0; r < ranks; ++r) {
            if (seq == collectives - 1 && r == culprit) continue;
            const Nanos enter = seq * kSecond + r * 1000;
            run->collectives.push_back({r, 0, 0, seq, enter, seq == collectives - 1 ? enter : enter + 200 * kMillisecond, 1 << 20});
        }
    HangFinding f{"0", "default_pg", all, collectives - 1, "nccl:all_reduce", "1048576", "BFloat16", run->info.startEpochNs + (collectives - 1) * kSecond,
                  {culprit}, {}, {}};
    for (std::int32_t r = 0; r < ranks; ++r)
        if (r != culprit) f.stuck.push_back(r);
    HangReport hang;
    hang.dumps = ranks;
    hang.findings = {f};
    hang.origins = {{0, {culprit}, f.stuck}};
    hang.culprits = {culprit};
    run->hang = std::move(hang);
    return run;
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");  // QPainter on a QImage needs no display
    QApplication app(argc, argv);
    std::int64_t collectives = 200;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--collectives") == 0) collectives = std::stoll(argv[i + 1]);
    constexpr std::int32_t kRanks = 16'384;
    const auto run = hungJob(kRanks, collectives, 9'001);
    std::printf("%d ranks x %lld collectives = %zu records\n", kRanks, static_cast<long long>(collectives), run->collectives.size());

    QElapsedTimer timer;
    timer.start();
    CollectiveLanes lanes = buildCollectiveLanes(*run);
    const double lanesMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    HangView view;
    view.resize(1600, 1000);
    timer.restart();
    view.setRun(run, std::move(lanes));
    const double setMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    std::printf("rank lanes sorted     %8.1f ms (done once, when the run is opened)\n", lanesMs);
    std::printf("hang lanes and flows  %8.1f ms (opening the hang window)\n", setMs);

    QImage image(view.size(), QImage::Format_RGB32);
    double worst = 0;
    for (int lane : {0, kRanks / 2, kRanks - 50}) {
        constexpr int kFrames = 20;
        timer.restart();
        for (int i = 0; i < kFrames; ++i) {
            view.scrollToLane(lane + i);  // a wheel scroll, a lane at a time
            view.render(&image);
        }
        const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6 / kFrames;
        worst = std::max(worst, ms);
        std::printf("redraw at lane %5d   %8.2f ms\n", lane, ms);
    }
    std::printf("worst=%.2f ms per redraw (interactive: under 16 ms)\n", worst);
    return 0;
}
