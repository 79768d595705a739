#pragma once
// Console logs of training jobs, behind any launcher's prefixes.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& consoleReaders();

void importTrainingLog(const std::string& path, ImportContext& ctx);

}  // namespace faultline
