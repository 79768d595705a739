#pragma once
// Faultline's own files: topology JSON and events.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& nativeReaders();

void importFaultlineTopology(const std::string& path, ImportContext& ctx);
void importNativeEvents(const std::string& path, ImportContext& ctx);

}  // namespace faultline
