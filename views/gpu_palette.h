#pragma once
// The colours of GPU states, shared by the fabric view, its legend and the render tests.
#include "model/replay_state.h"

#include <array>
#include <cstdint>

namespace faultline {

using Rgb = std::array<std::uint8_t, 3>;

inline constexpr Rgb kTrainingColour{168, 176, 188};      // neutral: nothing to see
inline constexpr Rgb kFailedColour{220, 30, 30};
inline constexpr Rgb kStragglingLight{255, 196, 90};      // a few percent slower
inline constexpr Rgb kStragglingDeep{214, 92, 0};         // 50% slower or worse
inline constexpr Rgb kCheckpointingColour{45, 115, 230};
inline constexpr Rgb kDownColour{58, 60, 70};
inline constexpr Rgb kReplacedOutline{0, 200, 210};
inline constexpr Rgb kFlashColour{255, 245, 120};
inline constexpr Rgb kBackground{236, 239, 243};
inline constexpr Rgb kSwitchColour{96, 112, 140};
inline constexpr Rgb kLinkColour{150, 160, 178};
inline constexpr Rgb kHighlightColour{20, 20, 20};
// The data hall around the GPUs: cabinets and metal trays that the state colours stand out
// against; the floor is the background, ruled by a grid and the zones' outlines.
inline constexpr Rgb kCabinetColour{96, 103, 118};  // apart from both grey training and dark down
inline constexpr Rgb kTrayColour{132, 138, 150};
inline constexpr Rgb kFloorLineColour{196, 202, 212};
inline constexpr Rgb kFloorTextColour{96, 104, 120};

inline Rgb gpuColour(const GpuVisual& v) {
    switch (v.state) {
        case GpuState::Training: return kTrainingColour;
        case GpuState::Failed: return kFailedColour;
        case GpuState::Checkpointing: return kCheckpointingColour;
        case GpuState::Down: return kDownColour;
        case GpuState::Straggling: {
            const int f = std::min<int>(v.slowdownPercent, 50);  // 0..50 -> light..deep
            Rgb c{};
            for (std::size_t k = 0; k < 3; ++k)
                c[k] = static_cast<std::uint8_t>((kStragglingLight[k] * (50 - f) + kStragglingDeep[k] * f) / 50);
            return c;
        }
    }
    return kTrainingColour;
}

// How much a state should catch the eye: a rack drawn as one block takes its worst GPU's.
inline int gpuSeverity(const GpuVisual& v) {
    switch (v.state) {
        case GpuState::Training: return 0;
        case GpuState::Checkpointing: return 1;
        case GpuState::Down: return 2;
        case GpuState::Straggling: return 3 + std::min<int>(v.slowdownPercent, 250);
        case GpuState::Failed: return 1000;
    }
    return 0;
}

}  // namespace faultline
