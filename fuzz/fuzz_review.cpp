// libFuzzer harness for the review file (RUN.faultline-review, model/review_file.h): the input
// is the review's bytes, beside a run file of this process's own. Reading a damaged or hostile
// review must end in faultline::Error or in notes and viewpoints; any other exception, crash,
// leak, hang or undefined behaviour is a defect libFuzzer reports. A review that reads must
// take a new note, and the save must keep every note and viewpoint it read (a save never
// loses what a reviewer wrote), or refuse with an Error and leave the review as it was.
#include "model/error.h"
#include "model/incident_notes.h"
#include "model/review_file.h"
#include "model/run_file.h"
#include "model/viewpoints.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// The names live as long as the process (never destroyed), so the exit handler can use them.
const std::string& runPath() {
    static const auto* path = new std::string("/tmp/faultline-fuzz-" + std::to_string(::getpid()) + "-review.faultline");
    return *path;
}

const std::string& reviewPath() {
    static const auto* path = new std::string(runPath() + "-review");
    return *path;
}

void removeScratchFiles() {
    std::remove(runPath().c_str());
    // A review in WAL mode leaves its -wal and -shm beside it once read.
    for (const char* suffix : {"", "-wal", "-shm", "-journal", ".lock"}) std::remove((reviewPath() + suffix).c_str());
}

[[maybe_unused]] const bool scratchRemovedAtExit = (std::atexit(removeScratchFiles), true);

// A run file to keep the review beside: one hour, one host, no events; written once.
void ensureRun() {
    static const bool written = [] {
        faultline::Run run;
        run.info.name = "fuzz";
        run.info.duration = 3600LL * 1000 * 1000 * 1000;
        faultline::writeRunFile(run, runPath());
        return true;
    }();
    (void)written;
}

std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void check(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "review-file harness: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ensureRun();
    {
        std::ofstream out(reviewPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    std::map<faultline::Nanos, faultline::IncidentNote> notes;
    std::vector<faultline::Viewpoint> viewpoints;
    try {
        notes = faultline::readIncidentNotes(runPath());
        viewpoints = faultline::readViewpoints(runPath());
        for (const auto& [begin, note] : notes) {
            check(begin == note.incidentBegin, "a note is filed under another incident");
            (void)faultline::noteExcerpt(note.notes);
            (void)faultline::joinTags(note.tags);
        }
    } catch (const faultline::Error&) {
        return 0;  // refused with a message: what a damaged review should get
    }
    // Read whole: a new note goes in, and nothing that was read is lost.
    const faultline::Nanos fresh = notes.empty() ? 1 : notes.rbegin()->first + 1;
    const std::string before = bytesOf(reviewPath());
    try {
        faultline::IncidentNotesStore(runPath()).save({fresh, "fuzz note", std::nullopt, {"fuzz"}, 0});
    } catch (const faultline::Error&) {
        check(bytesOf(reviewPath()) == before, "a refused save changed the review");
        return 0;
    }
    const auto after = faultline::readIncidentNotes(runPath());
    check(after.count(fresh) == 1 && after.at(fresh).notes == "fuzz note", "the saved note is not in the review");
    for (const auto& [begin, note] : notes) {
        if (faultline::trimmedText(note.notes).empty() && !note.confirmedCause && note.tags.empty()) continue;  // an empty note is no note
        check(after.count(begin) == 1, "a save lost a note the review held");
        check(after.at(begin).notes == note.notes && after.at(begin).tags == note.tags, "a save changed another note");
    }
    check(faultline::readViewpoints(runPath()).size() == viewpoints.size(), "a note's save lost a viewpoint");
    return 0;
}
