#pragma once
// Where a reviewer's notes live. A run file is evidence: viewing never writes it. What a
// reviewer adds goes into a review file beside it (RUN.faultline-review, SQLite, written
// whole through a temporary file and renamed, like run files), or, where the run's folder
// cannot be written, into the user's data folder. Only an explicit "save review into run
// file" copies the review into the run file itself.
#include "incident_notes.h"
#include "viewpoints.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

inline constexpr std::int32_t kReviewFileApplicationId = 0x46544C52;  // "FTLR"
inline constexpr int kReviewFileSchemaVersion = 1;

// A reviewer's text without the blanks around it: notes and viewpoint names are kept trimmed.
std::string trimmedText(const std::string& s);

// RUN.faultline-review when RUN's folder can be written; otherwise a file named after the run
// and a hash of its absolute path under $XDG_DATA_HOME (or ~/.local/share)/faultline/reviews.
std::string reviewFilePath(const std::string& runPath);

// Throws Error unless `runPath` is a Faultline run file (a review is kept for run files only).
void requireRunFile(const std::string& runPath);

// Where the review of `runPath` is read from: its review file when there is one (which
// holds the whole review), else the run file itself. Throws Error when the review file is
// not one.
std::string reviewSource(const std::string& runPath);

// A run's review: what its reviewers wrote about its incidents, and the views they saved.
struct Review {
    std::map<Nanos, IncidentNote> notes;
    std::vector<Viewpoint> viewpoints;
};

// How every writer changes a review: under the review's lock (model/review_lock.h) the review
// is read as it is on disk now, whatever another window or reviewer saved a moment ago,
// `change` edits it, and the result is written whole. Only what `change` touched differs from
// what was on disk: nobody's note is lost. Throws Error (and writes nothing when `change`
// throws).
void updateReview(const std::string& runPath, const std::string& reviewPath, const std::function<void(Review&)>& change);

// Writes the whole review of `runPath` (its notes and saved viewpoints) into `reviewPath`
// through a temporary file renamed over it. Throws Error when it cannot be written.
void writeReviewFile(const std::string& runPath, const std::string& reviewPath, const std::map<Nanos, IncidentNote>& notes,
                     const std::vector<Viewpoint>& viewpoints);

// Which version of a review file is on disk: its inode, size and modification time.
struct ReviewStamp {
    std::uint64_t device = 0, inode = 0;
    std::int64_t size = 0, modifiedNs = 0;
    bool operator==(const ReviewStamp&) const = default;
};
// The review file at `reviewPath` as it is now; nullopt when there is none.
std::optional<ReviewStamp> reviewStampNow(const std::string& reviewPath);
// The review file as this process last left it (written, or removed: nullopt), so a watcher
// tells another window's or reviewer's save from its own; false when it never wrote it.
bool lastWrittenHere(const std::string& reviewPath, std::optional<ReviewStamp>& stamp);

// Copies the review (the notes readIncidentNotes gives, the viewpoints readViewpoints gives)
// into the run file's incident_notes and viewpoints tables, rewriting the run file through a temporary file, then removes the review file,
// all under the review's lock.
// Throws Error naming the file when the run file or its folder cannot be written.
void saveReviewIntoRunFile(const std::string& runPath);

}  // namespace faultline
