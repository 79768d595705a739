#pragma once
// Paths of the real files (../shared/realdata) and our own fixtures, and a one-call import.
#include "error_of.h"
#include "importers/importer.h"
#include "test_runs.h"
#include "realdata.h"

#include <gtest/gtest.h>

#include <string>

namespace faultline::test {

inline std::string fixture(const std::string& name) { return std::string(FAULTLINE_IMPORTER_TESTDATA) + "/" + name; }

inline ImportResult importPaths(const std::vector<std::string>& paths, const ImportOptions& options = {}) {
    return importFiles(paths, options);
}

}  // namespace faultline::test
