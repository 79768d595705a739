#pragma once
// Slurm: the topology.conf and sacct's accounting, as text or JSON.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& slurmReaders();

void importSlurmTopology(const std::string& path, ImportContext& ctx);
void importSacct(const std::string& path, ImportContext& ctx);
void importSacctJson(const std::string& path, ImportContext& ctx);

}  // namespace faultline
