#pragma once
// A query_range response ({"status":"success","data":{"resultType":"matrix","result":[...]}})
// read with nlohmann/json's SAX parser straight into the import's telemetry: a response of
// millions of samples is never held as a document. Labels name GPUs as the file readers'
// (importers/telemetry/telemetry_labels.h: dcgm-exporter's Hostname, gpu, UUID, pci_bus_id;
// node_exporter's instance).
#include "importers/events/import_report.h"
#include "importers/events/telemetry_accumulator.h"

#include <cstdint>
#include <set>
#include <string>

namespace faultline {

struct MatrixCounts {
    std::int64_t samples = 0;
    std::int64_t series = 0;
    std::int64_t noGpu = 0;    // samples of series that name no GPU
    std::int64_t skipped = 0;  // NaN and infinite samples
};

// Adds the response's samples to `telemetry`, noting times and skipped series in `report`;
// `hosts` gets every host a series named. Error naming `where` when the body is not a
// successful matrix response (the server's own error message quoted).
MatrixCounts readMatrixResponse(const std::string& body, const std::string& where, ImportedTelemetry& telemetry, FileReport& report,
                                std::set<std::string>& hosts);

}  // namespace faultline
