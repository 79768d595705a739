#pragma once
// Paths of the real files (../shared/realdata) and our own fixtures, and a one-call import.
#include "error_of.h"
#include "importers/importer.h"
#include "importers/text/text_parse.h"
#include "test_runs.h"
#include "realdata.h"

#include <gtest/gtest.h>

#include <string>

namespace faultline::test {

// The real Flight Recorder dumps of NVIDIA's resiliency extension, under the real-data folder.
inline const std::string kFr = "flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/";

// A real kernel log of GPU memory errors (gpud's test data), under the real-data folder.
inline constexpr const char* kGpudMemoryLog = "xid_kernel_logs/gpud/components/memory/testdata/dmesg.decode.iso.log";

// The time an ISO 8601 text names (the tests' own, known to parse).
inline EpochNs at(const char* iso) { return *parseIsoTime(iso); }

inline std::string fixture(const std::string& name) { return std::string(FAULTLINE_IMPORTER_TESTDATA) + "/" + name; }

inline ImportResult importPaths(const std::vector<std::string>& paths, const ImportOptions& options = {}) {
    return importFiles(paths, options);
}

}  // namespace faultline::test
