#pragma once
// The colours of GPU states, shared by the fabric view, its legend and the render tests.
#include "model/replay_state.h"

#include <array>
#include <cstdint>

namespace faultline {

using Rgb = std::array<std::uint8_t, 3>;

// Two colours equal, without the call to memcmp that comparing the arrays compiles to: it
// runs for every GPU every frame.
inline bool sameRgb(const Rgb& a, const Rgb& b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

inline constexpr Rgb kTrainingColour{168, 176, 188};      // neutral: nothing to see
inline constexpr Rgb kFailedColour{220, 30, 30};
inline constexpr Rgb kStragglingLight{255, 196, 90};      // a few percent slower
inline constexpr Rgb kStragglingDeep{214, 92, 0};         // 50% slower or worse
inline constexpr Rgb kCheckpointingColour{45, 115, 230};
inline constexpr Rgb kDownColour{58, 60, 70};
inline constexpr Rgb kReplacedOutline{0, 200, 210};
inline constexpr Rgb kFlashColour{255, 245, 120};  // the standard palette's; each palette has its own
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

// The timeline's colours beside the GPU states (its failure marks and checkpoint saves are the
// states' failed and checkpointing): the job's band, its downtimes by the scope of their
// cause, the work lost, checkpoint loads and the ranks inside collectives.
struct TimelineColours {
    Rgb training, gpuCause, hostCause, networkCause, softwareCause, planned, lostWork, checkpointLoad, collective;
};

// The state colours, as a set: the standard one above, or one that people with any kind of
// colour blindness tell apart (Okabe & Ito's palette; docs/colours.md lists both). The one
// source of the colours of the 3D view, its legend, the timeline and its legend, the
// scrubber's marks, the charts' straggler marks, and the report, video and presentation
// drawn with them. No two entries of one legend are closer than a CIEDE2000 difference of 10
// (colour_difference.h; tested for every palette and both themes).
// View > Colour By a metric: a sequential scale, low to high, that holds no colour of a failure
// or its flash, and the colour of a GPU without a reading (dark, like an empty slot in the
// cabinet, never the grey of a healthy GPU).
struct MetricColours {
    std::array<Rgb, 5> scale;
    Rgb noData;
};
struct StatePalette {
    // noData: a GPU no trace covers, faded (pale, apart from every other state's colour)
    Rgb training, failed, stragglingLight, stragglingDeep, checkpointing, down, flash, noData;
    TimelineColours timeline;
    MetricColours metric;
};
inline constexpr StatePalette kStandardStates{
    kTrainingColour, kFailedColour, kStragglingLight, kStragglingDeep, kCheckpointingColour, kDownColour, kFlashColour, {230, 232, 236},
    {{182, 214, 170}, {245, 140, 140}, {150, 95, 40}, {125, 65, 175}, {0, 140, 90}, {150, 150, 150}, {230, 150, 40}, {40, 190, 210}, {70, 70, 110}},
    // viridis (van der Walt & Smith, matplotlib) up to 0.9: even in lightness, read alike by most
    // colour-blind eyes; its last, brightest yellow is too near the flash's
    {{{{68, 1, 84}, {59, 82, 139}, {40, 125, 142}, {53, 183, 121}, {189, 223, 38}}}, {78, 82, 94}}};
inline constexpr StatePalette kOkabeItoStates{
    kTrainingColour, {213, 94, 0}, {240, 228, 66}, {204, 121, 167}, {0, 114, 178}, kDownColour, {255, 255, 255}, {198, 198, 183},
    {{182, 214, 170}, {204, 121, 167}, {230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {150, 150, 150}, {240, 228, 66}, {100, 60, 20}, {70, 70, 110}},
    // cividis (Nuñez, Anderton & Renslow 2018): made to look the same with deuteranopia as without
    {{{{0, 34, 78}, {64, 77, 108}, {124, 123, 120}, {188, 175, 111}, {255, 234, 69}}}, {58, 36, 44}}};

enum class StatePaletteKind { Standard, ColourBlindSafe };

// The set every view draws with now (View > Colour-Blind-Safe Colours chooses it; it is kept,
// and its changes announced, by StatePaletteChoice in state_palette.h).
const StatePalette& activeStatePalette();

inline Rgb gpuColour(const GpuVisual& v, const StatePalette& palette) {
    switch (v.state) {
        case GpuState::Training: return palette.training;
        case GpuState::Failed: return palette.failed;
        case GpuState::Checkpointing: return palette.checkpointing;
        case GpuState::Down: return palette.down;
        case GpuState::NoData: return palette.noData;
        case GpuState::Straggling: {
            const int f = std::min<int>(v.slowdownPercent, 50);  // 0..50 -> light..deep
            Rgb c{};
            for (std::size_t k = 0; k < 3; ++k)
                c[k] = static_cast<std::uint8_t>((palette.stragglingLight[k] * (50 - f) + palette.stragglingDeep[k] * f) / 50);
            return c;
        }
    }
    return palette.training;
}
inline Rgb gpuColour(const GpuVisual& v) { return gpuColour(v, activeStatePalette()); }

// How much a state should catch the eye: a rack drawn as one block takes its worst GPU's.
inline int gpuSeverity(const GpuVisual& v) {
    switch (v.state) {
        case GpuState::NoData:
        case GpuState::Training: return 0;
        case GpuState::Checkpointing: return 1;
        case GpuState::Down: return 2;
        case GpuState::Straggling: return 3 + std::min<int>(v.slowdownPercent, 250);
        case GpuState::Failed: return 1000;
    }
    return 0;
}

}  // namespace faultline
