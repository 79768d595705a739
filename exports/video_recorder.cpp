#include "exports/video_recorder.h"

#include "views/fabric/viewpoint_camera.h"

#include "model/error.h"
#include "model/format.h"
#include "model/metric_text.h"
#include "exports/offscreen_renderer.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/job_colouring.h"
#include "views/run_loader.h"
#include "exports/run_instant.h"
#include "exports/video_encoder.h"

#include <QElapsedTimer>

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace faultline {

std::optional<VideoPlan> planVideo(const Run& run, const VideoOptions& o, QString* error) {
    VideoPlan plan{0, run.info.duration, 0, 0};
    if (!o.from.isEmpty()) {
        const auto t = parseInstant(o.from, run, error);
        if (!t) return error->replace("--at", "--from"), std::nullopt;
        plan.from = *t;
    }
    if (!o.to.isEmpty()) {
        const auto t = parseInstant(o.to, run, error);
        if (!t) return error->replace("--at", "--to"), std::nullopt;
        plan.to = *t;
    }
    if (plan.to <= plan.from) {
        *error = "--to must come after --from";
        return std::nullopt;
    }
    if (o.fps < 1 || o.fps > 120) {
        *error = "--fps expects 1 to 120 frames a second";
        return std::nullopt;
    }
    if (o.size.width() % 2 || o.size.height() % 2 || o.size.width() < 64 || o.size.height() < 64) {
        *error = "--size for a video expects even numbers of at least 64, such as 1920x1080";
        return std::nullopt;
    }
    Nanos perSecond = (plan.to - plan.from) / 60;  // the whole span in a minute
    if (!o.speed.isEmpty()) {
        QString text = o.speed;
        if (text.endsWith("/s")) text.chop(2);
        const auto speed = parseDuration(text.toStdString());
        if (!speed || *speed <= 0) {
            *error = QString("--speed expects run time per second of video, such as 1h/s or 30m/s, not \"%1\"").arg(o.speed);
            return std::nullopt;
        }
        perSecond = *speed;
    }
    plan.perFrame = std::max<Nanos>(1, perSecond / o.fps);
    plan.frames = static_cast<int>(std::max<Nanos>(1, (plan.to - plan.from + plan.perFrame / 2) / plan.perFrame));
    return plan;
}

int recordVideo(OffscreenRenderer& renderer, const VideoPlan& plan, const VideoOptions& o, const std::function<bool(int, int)>& progress,
                VideoTiming* timing) {
    VideoEncoder encoder(o.out.toStdString(), o.size.width(), o.size.height(), o.fps);
    // A failure flashes for half a second of video, as the live replay flashes it.
    renderer.setFlashSpan(plan.perFrame * std::max(1, o.fps / 2));
    // And is called out (ring and name at the failed part) for three seconds of video.
    renderer.setCalloutSpan(plan.perFrame * o.fps * 3);
    VideoTiming local;
    VideoTiming& t = timing ? *timing : local;
    QElapsedTimer clock;
    for (int i = 0; i < plan.frames; ++i) {
        clock.start();
        const QImage frame = renderer.render(plan.from + plan.perFrame * i);
        t.renderMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        if (frame.size() != o.size) throw Error("a frame came out " + std::to_string(frame.width()) + "x" + std::to_string(frame.height()));
        clock.start();
        encoder.addFrame(frame.constBits(), static_cast<int>(frame.bytesPerLine()));
        t.waitMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        if (progress && !progress(i + 1, plan.frames)) return i + 1;  // the encoder's destructor removes the file
    }
    clock.start();
    encoder.finish();
    t.finishMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return plan.frames;
}

int recordVideoHeadless(const QString& path, const VideoOptions& o) {
    try {
        const std::shared_ptr<const LoadedRun> loaded = loadRun(path);
        const std::shared_ptr<const Run> run(loaded, &loaded->run);
        QString error;
        const auto plan = planVideo(*run, o, &error);
        if (!plan) {
            std::fprintf(stderr, "faultline: %s\n", qPrintable(error));
            return 2;
        }
        OffscreenRenderer renderer(run, o.size);
        if (!o.viewpoint.isEmpty()) {
            const auto viewpoint = savedViewpoint(path, *run, o.viewpoint, &error);
            if (!viewpoint) {
                std::fprintf(stderr, "faultline: %s\n", qPrintable(error));
                return 1;
            }
            goToViewpoint(renderer.view(), *viewpoint, 0);
        }
        if (!o.colourBy.isEmpty()) renderer.view().setColourBy(colourByNamed(*run, o.colourBy.toStdString()));
        QElapsedTimer timer, shown;
        timer.start();
        shown.start();
        const bool tty = isatty(fileno(stderr));
        VideoTiming timing;
        const int frames = recordVideo(renderer, *plan, o, [&](int done, int total) {
            // A few updates a second: a progress line, not a flood.
            if (shown.elapsed() >= 250 || done == total) {
                shown.restart();
                const double s = static_cast<double>(timer.elapsed()) / 1000.0;
                std::fprintf(stderr, "%srecording frame %d/%d, %.1f frames/s%s", tty ? "\r" : "", done, total, done / std::max(s, 1e-3),
                             tty ? "" : "\n");
                std::fflush(stderr);
            }
            return true;
        }, &timing);
        const double s = static_cast<double>(timer.elapsed()) / 1000.0;
        if (tty) std::fputc('\n', stderr);
        std::printf("wrote %s: %d frames at %dx%d, %d fps (%s of the run, %s to %s) in %.1f s, %.1f frames/s\n", qPrintable(o.out), frames,
                    o.size.width(), o.size.height(), o.fps, formatDuration(plan->to - plan->from).c_str(), formatDuration(plan->from).c_str(),
                    formatDuration(plan->to).c_str(), s, frames / std::max(s, 1e-3));
        std::printf("  per frame: %.1f ms rendering, %.1f ms waiting for the encoder; %.0f ms flushing it at the end\n",
                    timing.renderMs / std::max(1, frames), timing.waitMs / std::max(1, frames), timing.finishMs);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "\nfaultline: %s\n", e.what());
        return 1;
    }
}

}  // namespace faultline
