#pragma once
// A line exactly as wide as a common terminal (or a pasted-log viewer) was likely cut there: the
// rest of it is the next physical line.
#include <algorithm>
#include <cstddef>
#include <iterator>

namespace faultline {

inline constexpr std::size_t kTerminalWidths[] = {80, 100, 120, 132, 160, 200};

inline bool terminalWide(std::size_t bytes) { return std::find(std::begin(kTerminalWidths), std::end(kTerminalWidths), bytes) != std::end(kTerminalWidths); }

}  // namespace faultline
