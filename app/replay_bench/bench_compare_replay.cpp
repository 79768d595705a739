#include "app/replay_bench/bench_replay.h"

#include "app/compare_window.h"
#include "simulator/simulator.h"
#include "simulator/what_if.h"
#include "views/fabric/fabric_view.h"
#include "widgets/vtk_render_widget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QWindow>

#include <chrono>
#include <cstdio>

namespace faultline {

// The comparison window as a user sees it (both views, the diff and the charts), with a
// simulated run as A and its what-if (checkpoints every 5 minutes) as B. A frame is counted
// when both views have presented the same clock instant.
int runCompareReplayBenchmark(int gpus, QSize size) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    SimulationParams p = simulationPreset("llama3-405b");
    p.fabric.gpus = gpus;
    auto loaded = std::make_shared<LoadedComparison>();
    loaded->a = std::make_shared<const Run>(simulate(p));
    RecoveryPolicy policy;
    policy.checkpointInterval = 5 * kMinute;
    loaded->b = std::make_shared<const Run>(replayWithPolicy(*loaded->a, policy));
    const auto t1 = Clock::now();
    loaded->comparison = compareRuns(*loaded->a, *loaded->b);
    const auto t2 = Clock::now();

    CompareWindow window;
    window.resize(size);
    window.showComparison(loaded);
    QElapsedTimer waited;
    waited.start();
    while (!(window.windowHandle() && window.windowHandle()->isExposed()) && waited.elapsed() < 10'000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!window.windowHandle() || !window.windowHandle()->isExposed()) {
        std::fprintf(stderr, "faultline: the benchmark window was never shown\n");
        return 1;
    }
    const auto t3 = Clock::now();

    QElapsedTimer clock;
    clock.start();
    long frames = 0;
    qint64 measureFrom = -1;
    bool swappedA = false, swappedB = false;
    Nanos t = 0;
    const Nanos duration = loaded->a->info.duration;
    auto next = [&] {
        swappedA = swappedB = false;
        t = (t + kFrameStep) % duration;
        window.setClock(t);
    };
    auto swapped = [&](bool& flag) {
        flag = true;
        if (!(swappedA && swappedB)) return;
        const qint64 now = clock.elapsed();
        if (measureFrom < 0 && now >= kWarmUpMs) {
            measureFrom = now;
            window.viewA()->renderWidget()->setTimingFrames(true);
            window.viewB()->renderWidget()->setTimingFrames(true);
        }
        if (measureFrom >= 0) ++frames;
        if (measureFrom >= 0 && now - measureFrom >= kMeasureMs) QApplication::quit();
        next();
    };
    QObject::connect(window.viewA()->renderWidget(), &VtkRenderWidget::framePresented, &window, [&] { swapped(swappedA); });
    QObject::connect(window.viewB()->renderWidget(), &VtkRenderWidget::framePresented, &window, [&] { swapped(swappedB); });
    QTimer kick;  // in case a swap came while a request was already pending
    QObject::connect(&kick, &QTimer::timeout, &window, [&] {
        window.viewA()->renderWidget()->update();
        window.viewB()->renderWidget()->update();
    });
    kick.start(50);
    next();
    QApplication::exec();
    const double seconds = static_cast<double>(clock.elapsed() - measureFrom) / 1000.0;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("compare gpus=%zu+%zu size=%dx%d lod=%s/%s simulate_and_whatif_ms=%.0f compare_ms=%.0f first_frame_ms=%.0f frames=%ld\n",
                loaded->a->topology.gpus.size(), loaded->b->topology.gpus.size(), size.width(), size.height(), window.viewA()->detailName(),
                window.viewB()->detailName(), ms(t0, t1), ms(t1, t2), ms(t2, t3), frames);
    std::printf("render_ms=%.1f+%.1f (each view: state, colours, VTK, read-back per frame)\n", window.viewA()->renderWidget()->meanFrameRenderMs(),
                window.viewB()->renderWidget()->meanFrameRenderMs());
    std::printf("fps=%.1f (both views)\n", static_cast<double>(frames) / seconds);
    return 0;
}

}  // namespace faultline
