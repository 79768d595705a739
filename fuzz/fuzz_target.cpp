// One libFuzzer harness, built once per target (FAULTLINE_FUZZ_TARGET): an importer by its
// format name, the run-file reader ("run-file") or the pickle reader ("pickle"). Input that
// is merely bad must end in faultline::Error, the one exception users see as a message; any
// other exception, crash, leak, hang or undefined behaviour is a defect libFuzzer reports.
// What import writes, every reader reads: an input that imports must make a run that is
// written, re-opened and summarised; an Error there is a defect too. A Flight Recorder dump is
// also read both ways, by the fast scan and through the whole document: they must agree.
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/events/import_context.h"
#include "importers/importer.h"
#include "analysis/summary.h"
#include "importers/pytorch/pickle_reader.h"
#include "model/error.h"
#include "model/run_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
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

// Two readings of one dump give the same dump: every field a user can see, entry by entry.
bool sameDump(const faultline::FlightRecorderDump& a, const faultline::FlightRecorderDump& b) {
    auto sameGroups = [](const auto& x, const auto& y) {
        if (x.size() != y.size()) return false;
        for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
            if (i->first != j->first || i->second.name != j->second.name || i->second.desc != j->second.desc || !i->second.ranks != !j->second.ranks ||
                (i->second.ranks && *i->second.ranks != *j->second.ranks))
                return false;
        return true;
    };
    auto sameStatus = [](const auto& x, const auto& y) {
        if (x.size() != y.size()) return false;
        for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
            if (i->first != j->first || i->second.lastEnqueued != j->second.lastEnqueued || i->second.lastStarted != j->second.lastStarted ||
                i->second.lastCompleted != j->second.lastCompleted)
                return false;
        return true;
    };
    if (a.rank != b.rank || a.version != b.version || a.ncclVersion != b.ncclVersion || !sameGroups(a.groups, b.groups) ||
        !sameStatus(a.groupStatus, b.groupStatus) || a.entries.size() != b.entries.size() || !(a.timings == b.timings))
        return false;
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const auto& x = a.entries[i];
        const auto& y = b.entries[i];
        const auto& gx = a.groupOf(x);
        const auto& gy = b.groupOf(y);
        if (x.collectiveSeqId != y.collectiveSeqId || x.timeCreatedNs != y.timeCreatedNs || x.state != y.state || x.isP2P != y.isP2P ||
            gx.name != gy.name || gx.desc != gy.desc || gx.pgId != gy.pgId || a.opOf(x) != b.opOf(y) || !(a.inputOf(x) == b.inputOf(y)) ||
            !(a.tensors[x.output] == b.tensors[y.output]))
            return false;
    }
    return true;
}

// The fast pickle scan must never read a dump otherwise than the reference reading through
// the whole document: the same dump from both, or the same refusal.
void compareDumpReadings(std::string_view data) {
    auto read = [&](bool whole) -> std::optional<faultline::FlightRecorderDump> {
        try {
            return faultline::readFlightRecorderDump("fuzz_dump_0", data, faultline::FlightRecorderReading{.wholeDocument = whole, .timings = true});
        } catch (const faultline::Error&) {
            return std::nullopt;
        }
    };
    const auto fast = read(false);
    const auto whole = read(true);
    if (fast.has_value() != whole.has_value() || (fast && !sameDump(*fast, *whole))) {
        std::fprintf(stderr, "the fast scan and the whole document read this dump differently\n");
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
            if (target == "flight-recorder") compareDumpReadings(std::string_view(reinterpret_cast<const char*>(data), size));
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
