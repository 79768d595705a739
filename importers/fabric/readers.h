#pragma once
// Fabric dumps: InfiniBand ibnetdiscover.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& fabricReaders();

void importIbnetdiscover(const std::string& path, ImportContext& ctx);

}  // namespace faultline
