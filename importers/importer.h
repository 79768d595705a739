#pragma once
// The one entry point the CLI and the app share: read files and folders in whatever formats
// they are, build a run, and (optionally) write it. Nothing is written unless every file
// was read; Cancel stops at the next chunk and writes nothing.
#include "import_context.h"
#include "import_report.h"

#include "model/run.h"

#include <atomic>
#include <string>
#include <vector>

namespace faultline {

struct ImportResult {
    Run run;
    ImportSummary summary;
};

// Files named directly must be in a known format (else Error naming the file); files found
// inside a folder in no known format are listed as "unknown" and skipped, since folders hold
// READMEs and licences beside the data.
ImportResult importFiles(const std::vector<std::string>& inputs, const ImportOptions& options,
                         const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// importFiles, then writes the run file in one transaction.
ImportSummary importToRunFile(const std::vector<std::string>& inputs, const std::string& output,
                              const ImportOptions& options, const ProgressFn& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

}  // namespace faultline
