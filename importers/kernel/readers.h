#pragma once
// Kernel logs: NVIDIA Xid lines and the hardware errors around them.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& kernelReaders();

void importKernelLog(const std::string& path, ImportContext& ctx);

}  // namespace faultline
