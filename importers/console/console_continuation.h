#pragma once
// A message cut over two physical lines, joined again. Terminals and runners cut long lines:
// at a fixed width (the cut line is as long as the longest), or where the program's message
// had a line break its wrappers did not repeat (the continuation carries none of the
// wrappers the cut line had), or explicitly (a container runtime's partial record). The
// continuation is taken only when the joined line says more than the two halves: it reads
// as an event neither half read as alone, or completes the event its first half began.
#include "importers/console/console_chunks.h"

#include <optional>

namespace faultline {

// `a` then `b` as one line, when `b` continues `a`; the joined text and event are kept in
// `keep` (a's chunk). `longest`: the longest physical line so far, `a` included; `width`: a
// terminal's width the log shows (two lines or more exactly as long as the longest), else 0.
std::optional<PreparedLine> joinContinuation(const PreparedLine& a, const ConsoleEvent* eventA, const PreparedLine& b, const ConsoleEvent* eventB,
                                             std::size_t longest, std::size_t width, PreparedChunk& keep);

}  // namespace faultline
