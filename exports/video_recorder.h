#pragma once
// The replay as a video: File > Export Video... and `faultline --record OUT.mp4 [--from T]
// [--to T] [--speed 1h/s] [--fps 30] [--size 1920x1080] RUN`. Each frame is rendered off
// screen (offscreen_renderer.h) at its own instant, not captured from the screen, so the
// video is smooth however slow the machine; H.264 MP4 through FFmpeg (video_encoder.h).
#include "model/run.h"

#include <QSize>
#include <QString>

#include <functional>
#include <optional>

namespace faultline {

class OffscreenRenderer;

struct VideoOptions {
    QString out;
    QString from;   // an instant as --at reads it; empty: the run's start
    QString to;     // empty: the run's end
    QString speed;  // run time per second of video ("1h/s", "30m"); empty: the span in 60 s
    int fps = 30;
    QSize size{1920, 1080};
    QString viewpoint = {};  // a viewpoint saved in the run's review; empty: the whole cluster
    QString colourBy = {};   // a metric the 3D view is coloured by (View > Colour By); empty: GPU state
};

struct VideoPlan {
    Nanos from = 0;
    Nanos to = 0;
    Nanos perFrame = 0;  // run time between frames
    int frames = 0;
};

// Reads the options against the run; nullopt with `error` set when they make no video.
std::optional<VideoPlan> planVideo(const Run& run, const VideoOptions& options, QString* error);

// Where the time of a recording went (for the figures the headless run prints).
struct VideoTiming {
    double renderMs = 0;  // rendering frames off screen, on this thread
    double waitMs = 0;    // waiting for the encoder to take a frame (it is behind)
    double finishMs = 0;  // flushing the encoder at the end
};

// Renders and encodes every frame. `progress(done, total)` after each frame returns false
// to cancel (the file is then removed). Returns the frames written; throws Error.
int recordVideo(OffscreenRenderer& renderer, const VideoPlan& plan, const VideoOptions& options,
                const std::function<bool(int, int)>& progress = {}, VideoTiming* timing = nullptr);

// Headless: loads the run and records it, with a progress line on the terminal. Returns
// the process exit status.
int recordVideoHeadless(const QString& runPath, const VideoOptions& options);

}  // namespace faultline
