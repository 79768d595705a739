#pragma once
// The import's invariants (importers/import_invariants.h) checked on what an import gave: one
// check for every fixture, every real file and every generated combination.
#include "importers/importer.h"

#include <string>

namespace faultline::test {

// What breaks a rule, one line each; "" when every rule holds. `newestWrite`: the newest
// modification time of the imported files.
std::string importInvariantViolations(const ImportResult& r, EpochNs newestWrite);

}  // namespace faultline::test
