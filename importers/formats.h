#pragma once
// The formats Faultline reads, each with a name (for --format and reports), and how a file
// is recognised from its first bytes.
#include "import_context.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

struct FormatInfo {
    std::string_view name;
    std::string_view description;
    void (*import)(const std::string& path, ImportContext& ctx);
};

const std::vector<FormatInfo>& formats();
const FormatInfo* findFormat(std::string_view name);
// The format of `path` judged from its first (decompressed) bytes; nullptr when unknown.
const FormatInfo* detectFormat(const std::string& path);
// "kineto, flight-recorder, ..." for messages.
std::string formatNames();

// The format importers, one per file (see docs/formats.md).
void importKineto(const std::string& path, ImportContext& ctx);
void importKernelLog(const std::string& path, ImportContext& ctx);
void importSacct(const std::string& path, ImportContext& ctx);
void importSacctJson(const std::string& path, ImportContext& ctx);
void importSlurmTopology(const std::string& path, ImportContext& ctx);
void importIbnetdiscover(const std::string& path, ImportContext& ctx);
void importFaultlineTopology(const std::string& path, ImportContext& ctx);
void importNativeEvents(const std::string& path, ImportContext& ctx);
void importTrainingLog(const std::string& path, ImportContext& ctx);
void importFlightRecorder(const std::string& path, ImportContext& ctx);
void importFlightRecorderJson(const std::string& path, ImportContext& ctx);
void importPrometheusText(const std::string& path, ImportContext& ctx);
void importPrometheusJson(const std::string& path, ImportContext& ctx);
void importNvidiaSmiCsv(const std::string& path, ImportContext& ctx);
void importGpuDmon(const std::string& path, ImportContext& ctx);

// Topology readers hand their result here; a second topology file is an error.
void setImportedTopology(Topology topology, const std::string& path, ImportContext& ctx);

}  // namespace faultline
