#pragma once
// The run file (*.faultline): one SQLite database holding a whole run.
//
// Written in one transaction into a temporary file beside the target, which is renamed over
// the target only once complete: an interrupted write leaves no run behind. Opened
// read-only; a file that is not a run file, has a newer schema, or is corrupt gives one
// Error that says which.
#include "run.h"

#include <string>

namespace faultline {

inline constexpr int kRunFileSchemaVersion = 7;
inline constexpr std::int32_t kRunFileApplicationId = 0x46544C4E;  // "FTLN"

void writeRunFile(const Run& run, const std::string& path);
Run readRunFile(const std::string& path);

}  // namespace faultline
