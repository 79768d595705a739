#pragma once
// `faultline --bench-replay --gpus N`: replays a simulated run of N GPUs in the fabric view
// at 1600x1000, recolouring every GPU every frame, and prints the frame rate it sustains
// (`fps=<value>`) with where a frame's time goes. `closeCamera` frames one zone, near enough
// that each GPU is drawn on its own, instead of the whole cluster. With `runFile` it replays
// that run instead (a fleet's: `simulate --preset fleet-350k`) and prints how long it took to
// open: read the file, build the view, draw the first frame (`open_ms=`).
#include "model/time.h"

#include <QSize>
#include <QString>

namespace faultline {

// Both replay benchmarks: frames drawn before measuring, then measured for this long.
inline constexpr qint64 kWarmUpMs = 1500;
inline constexpr qint64 kMeasureMs = 6000;
// Each frame moves the replay this far: far enough that states change from frame to frame.
inline constexpr Nanos kFrameStep = 7 * kMinute;

int runReplayBenchmark(int gpus, QSize size, bool closeCamera = false, const QString& runFile = {});
// The same with two runs of `gpus` GPUs side by side in the comparison window.
int runCompareReplayBenchmark(int gpus, QSize size);

}  // namespace faultline
