#pragma once
// GPU telemetry: Prometheus text and JSON, nvidia-smi CSV and dmon.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& telemetryReaders();

void importPrometheusText(const std::string& path, ImportContext& ctx);
void importPrometheusJson(const std::string& path, ImportContext& ctx);
void importNvidiaSmiCsv(const std::string& path, ImportContext& ctx);
void importGpuDmon(const std::string& path, ImportContext& ctx);

}  // namespace faultline
