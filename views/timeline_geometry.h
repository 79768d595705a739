#pragma once
// Where the timeline draws its rows, in pixels: shared by its painting (timeline_view.cpp)
// and its tool tips and legend (timeline_view_tips.cpp), which must find the same rows.
namespace faultline::timeline_geometry {

inline constexpr int kLabelWidth = 64;   // row names on the left
inline constexpr int kRulerHeight = 34;  // wall time and step numbers
inline constexpr int kBandTop = 38, kBandHeight = 26;
inline constexpr int kCheckpointTop = 68, kCheckpointHeight = 12;
inline constexpr int kLanesTop = 86;

}  // namespace faultline::timeline_geometry
