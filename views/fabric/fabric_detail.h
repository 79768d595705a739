#pragma once
// How much of each GPU the fabric view draws, and its names ("boxes", "rows", "hall") as
// benchmarks and the FAULTLINE_BENCH_DETAIL variable spell them.
#include <cstdint>
#include <optional>
#include <string_view>

namespace faultline {

// Close up each GPU is a box on its host's tray in its cabinet. Further away each row of
// racks is one block whose front pictures every GPU as a patch of texels in its colour and
// whose lids take their worst GPU's colour: Rows with the rack switches on top, Hall (the
// farthest) without them, where they would be specks.
enum class FabricDetail : std::uint8_t { Boxes, Rows, Hall };

const char* fabricDetailName(FabricDetail detail);
// The detail a name stands for; nullopt for any other name (the view then chooses it itself).
std::optional<FabricDetail> fabricDetailFromName(std::string_view name);
// The detail FAULTLINE_BENCH_DETAIL pins (boxes|rows|hall), for benchmarks and off-screen
// renders that price one level; nullopt when it is unset or names none.
std::optional<FabricDetail> pinnedDetailFromEnvironment();

}  // namespace faultline
