// One libFuzzer harness, built once per target (FAULTLINE_FUZZ_TARGET): an importer by its
// format name, the run-file reader ("run-file") or the pickle reader ("pickle"). Input that
// is merely bad must end in faultline::Error, the one exception users see as a message; any
// other exception, crash, leak, hang or undefined behaviour is a defect libFuzzer reports.
// What import writes, every reader reads: an input that imports must make a run that is
// written, re-opened and summarised; an Error there is a defect too.
#include "importers/import_context.h"
#include "importers/importer.h"
#include "analysis/summary.h"
#include "importers/pickle_reader.h"
#include "model/error.h"
#include "model/run_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

// Importers read paths, so each input goes through a file of this process's own, removed
// when the fuzzer ends (libFuzzer leaves through exit(), at its time limit too).
// The names live as long as the process (never destroyed), so the exit handler can use them.
const std::string& scratchFile() {
    static const auto* path = new std::string("/tmp/faultline-fuzz-" + std::to_string(::getpid()) + "-" FAULTLINE_FUZZ_TARGET);
    return *path;
}

const std::string& scratchRunFile() {
    static const auto* path = new std::string(scratchFile() + ".faultline");
    return *path;
}

void removeScratchFiles() {
    std::remove(scratchFile().c_str());
    std::remove(scratchRunFile().c_str());
}

[[maybe_unused]] const bool scratchRemovedAtExit = (std::atexit(removeScratchFiles), true);

// The run of an input that imported must come back from its run file and summarise.
void reopenAndSummarise(const faultline::Run& run) {
    try {
        faultline::writeRunFile(run, scratchRunFile());
        const faultline::Run back = faultline::readRunFile(scratchRunFile());
        (void)faultline::summaryToText(faultline::summarize(back));
    } catch (const faultline::Error& e) {
        std::fprintf(stderr, "an input that imported made a run that does not re-open: %s\n", e.what());
        std::abort();
    }
}

void writeScratch(const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(scratchFile().c_str(), "wb");
    if (!f) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view target = FAULTLINE_FUZZ_TARGET;
    try {
        if (target == "pickle") {
            faultline::readPickle(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
        } else if (target == "run-file") {
            writeScratch(data, size);
            faultline::readRunFile(scratchFile());
        } else {
            writeScratch(data, size);
            faultline::ImportOptions options;
            options.format = std::string(target);
            options.workers = 1;
            options.year = 2025;  // syslog dates: the same result whatever today is
            reopenAndSummarise(faultline::importFiles({scratchFile()}, options).run);
        }
    } catch (const faultline::Error&) {
        // A clear refusal is the right answer to bad input.
    }
    return 0;
}
