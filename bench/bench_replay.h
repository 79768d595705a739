#pragma once
// `faultline --bench-replay --gpus N`: replays a simulated run of N GPUs in the fabric view
// at 1600x1000, recolouring every GPU every frame, and prints the frame rate it sustains
// (`fps=<value>`) with where a frame's time goes. `closeCamera` frames one zone, near enough
// that each GPU is drawn on its own, instead of the whole cluster.
#include <QSize>

namespace faultline {

int runReplayBenchmark(int gpus, QSize size, bool closeCamera = false);
// The same with two runs of `gpus` GPUs side by side in the comparison window.
int runCompareReplayBenchmark(int gpus, QSize size);

}  // namespace faultline
