// Timeline target: a redraw in under 16 ms at any zoom, for a 54-day run with a million
// events and more (llama3-405b: ~717,000 steps, ~7,600 checkpoints, 471 interruptions, plus
// a traced window of 1,003,520 collective records across 1,024 ranks).
// Run from an optimised build: build/release/bin/faultline_bench_timeline
#include "simulator/simulator.h"
#include "views/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <cstdio>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");  // QPainter on a QImage needs no display
    QApplication app(argc, argv);
    faultline::SimulationParams p = faultline::simulationPreset("llama3-405b");
    p.trace = {.ranks = 1'024, .steps = 245, .begin = 20 * faultline::kDay};
    auto run = std::make_shared<const faultline::Run>(faultline::simulate(p));
    const std::size_t events = run->steps.size() + run->checkpoints.size() + run->downtimes.size() + run->failures.size() +
                               run->stragglers.size() + run->collectives.size();
    std::printf("run: %zu steps, %zu checkpoints, %zu collective records: %zu events\n", run->steps.size(), run->checkpoints.size(),
                run->collectives.size(), events);

    faultline::TimelineView view;
    view.resize(1600, 400);
    view.setRun(run);
    QImage image(view.size(), QImage::Format_RGB32);
    const faultline::Nanos trace = run->collectives.front().enter;
    struct Zoom {
        const char* name;
        faultline::Nanos begin, end;
    } zooms[] = {
        {"whole run (54 d)", 0, run->info.duration},
        {"one day", 20 * faultline::kDay, 21 * faultline::kDay},
        {"traced window (~25 min), rank lanes", trace, trace + 25 * faultline::kMinute},
        {"one minute, rank lanes", trace + faultline::kMinute, trace + 2 * faultline::kMinute},
        {"ten milliseconds", trace + faultline::kMinute, trace + faultline::kMinute + 10 * faultline::kMillisecond},
    };
    double worst = 0;
    for (const Zoom& z : zooms) {
        view.setVisibleRange(z.begin, z.end);
        constexpr int kFrames = 20;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < kFrames; ++i) {
            view.setTime(z.begin + (z.end - z.begin) * i / kFrames);  // the cursor moves, as in playback
            view.render(&image);
        }
        const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6 / kFrames;
        worst = std::max(worst, ms);
        std::printf("%-40s %7.2f ms per redraw%s\n", z.name, ms, view.showsRankLanes() ? " (lanes)" : "");
    }
    std::printf("worst=%.2f ms\n", worst);
    return 0;
}
