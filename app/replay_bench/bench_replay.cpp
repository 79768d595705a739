#include "app/replay_bench/bench_replay.h"
#include "app/replay_bench/bench_telemetry_run.h"

#include "model/error.h"
#include "model/format.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "views/fabric/fabric_view.h"
#include "widgets/vtk_render_widget.h"

#include <QApplication>
#include <QImage>
#include <QElapsedTimer>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <memory>

namespace faultline {

namespace {
// Every host of the zone that holds `rack`.
std::vector<ComponentRef> zoneHosts(const Topology& topology, std::int32_t rack) {
    const std::int32_t zone = topology.racks[static_cast<std::size_t>(rack)].zone;
    std::vector<ComponentRef> hosts;
    for (std::size_t h = 0; h < topology.hosts.size(); ++h)
        if (topology.racks[static_cast<std::size_t>(topology.hosts[h].rack)].zone == zone)
            hosts.push_back({ComponentKind::Host, static_cast<std::int32_t>(h)});
    return hosts;
}

}  // namespace

int runReplayBenchmark(int gpus, QSize size, bool closeCamera, const QString& runFile) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    Run simulated;
    if (runFile.isEmpty()) {
        SimulationParams p = simulationPreset("llama3-405b");
        p.fabric.gpus = gpus;
        simulated = simulate(p);
    } else {
        try {
            simulated = readRunFile(runFile.toStdString());
        } catch (const Error& e) {
            std::fprintf(stderr, "faultline: %s\n", e.what());
            return 1;
        }
    }
    // FAULTLINE_BENCH_COLOUR_BY=power: View > Colour By power, on readings made up for the run
    // (bench_telemetry_run.h); the replay then loops over the day they cover. =job: by job.
    const bool byPower = qgetenv("FAULTLINE_BENCH_COLOUR_BY") == "power";
    const bool byJob = qgetenv("FAULTLINE_BENCH_COLOUR_BY") == "job";
    const std::int32_t power = byPower ? addBenchPowerReadings(simulated) : -1;
    const Nanos loop = byPower ? std::min(kDay, simulated.info.duration) : simulated.info.duration;
    auto run = std::make_shared<const Run>(std::move(simulated));
    const auto t1 = Clock::now();

    FabricView view;
    view.resize(size);
    view.setRun(run);
    // FAULTLINE_BENCH_DETAIL=boxes|rows|hall pins the level of detail; by default the view
    // picks it from the camera, as it does for a user.
    view.pinDetail(pinnedDetailFromEnvironment());
    // FAULTLINE_BENCH_AO=1: with View > Ambient Occlusion on, to price it.
    view.setAmbientOcclusion(qgetenv("FAULTLINE_BENCH_AO") == "1");
    if (byPower) {
        view.setColourBy(power);
        view.setReplayRate(kFrameStep * 30);  // a frame's step at 30 fps: the 10-minute level
    }
    if (byJob) view.setColourBy(kColourByJob);
    view.show();
    QElapsedTimer waited;
    waited.start();
    while (!(view.windowHandle() && view.windowHandle()->isExposed()) && waited.elapsed() < 10'000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!view.windowHandle() || !view.windowHandle()->isExposed()) {
        std::fprintf(stderr, "faultline: the benchmark window was never shown\n");
        return 1;
    }
    view.renderImage();  // the first frame: part of opening a run
    const auto shown = Clock::now();
    if (closeCamera) {
        view.renderImage();  // the first frame fits the whole cluster: frame the zone after it
        view.frameParts(zoneHosts(run->topology, run->topology.hosts[run->topology.hosts.size() / 2].rack));
    }
    const auto t2 = Clock::now();

    // Frame after frame as fast as Qt presents them: each swap asks for the next instant. A
    // zero timer asks too, in case a swap came while a request was already pending.
    QElapsedTimer clock;
    clock.start();
    long frames = 0;
    qint64 measureFrom = -1;
    std::clock_t cpuFrom = 0;
    Nanos t = 0;
    auto next = [&] {
        t = (t + kFrameStep) % loop;
        view.setTime(t);
    };
    QObject::connect(view.renderWidget(), &VtkRenderWidget::framePresented, &view, [&] {
        const qint64 now = clock.elapsed();
        if (measureFrom < 0 && now >= kWarmUpMs) {
            measureFrom = now;
            view.renderWidget()->setTimingFrames(true);
            cpuFrom = std::clock();
        }
        if (measureFrom >= 0) ++frames;
        if (measureFrom >= 0 && now - measureFrom >= kMeasureMs) QApplication::quit();
        next();
    });
    QTimer kick;
    QObject::connect(&kick, &QTimer::timeout, &view, next);
    kick.start(0);
    QApplication::exec();
    // FAULTLINE_BENCH_SHOT=FILE.png keeps the last frame: what the figures were measured on.
    if (const QByteArray shot = qgetenv("FAULTLINE_BENCH_SHOT"); !shot.isEmpty()) view.renderImage().save(QString::fromUtf8(shot));
    const double seconds = static_cast<double>(clock.elapsed() - measureFrom) / 1000.0;
    // Processor time of every thread of the process (the rasteriser's included) per frame:
    // what a frame costs whatever else the machine is doing at the time.
    const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpuFrom) / CLOCKS_PER_SEC / static_cast<double>(std::max(1L, frames));
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("gpus=%zu size=%dx%d camera=%s lod=%s colour_by=%s %s=%.0f first_frame_ms=%.0f frames=%ld\n", run->topology.gpus.size(),
                size.width(), size.height(), closeCamera ? "close" : "whole", view.detailName(), byPower ? "power" : byJob ? "job" : "state",
                runFile.isEmpty() ? "simulate_ms" : "read_ms", ms(t0, t1), ms(t1, t2), frames);
    // Opening the run: reading it (not simulating it) and the view up to its first frame.
    if (!runFile.isEmpty()) std::printf("open_ms=%.0f (read the file, build the view, first frame)\n", ms(t0, shown));
    // What the view itself costs a frame (state query, recolouring, VTK render, read-back), apart
    // from what Qt spends presenting the widget.
    std::printf("render_ms=%.1f (state, colours, VTK, read-back per frame)\n", view.renderWidget()->meanFrameRenderMs());
    std::printf("cpu_ms=%.1f (processor time of all threads per frame)\n", cpuMs);
    std::printf("fps=%.1f\n", static_cast<double>(frames) / seconds);
    return 0;
}

}  // namespace faultline
