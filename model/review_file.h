#pragma once
// Where a reviewer's notes live. A run file is evidence: viewing never writes it. What a
// reviewer adds goes into a review file beside it (RUN.faultline-review, SQLite, written
// whole through a temporary file and renamed, like run files), or, where the run's folder
// cannot be written, into the user's data folder. Only an explicit "save review into run
// file" copies the review into the run file itself.
#include <cstdint>
#include <string>

namespace faultline {

inline constexpr std::int32_t kReviewFileApplicationId = 0x46544C52;  // "FTLR"
inline constexpr int kReviewFileSchemaVersion = 1;

// RUN.faultline-review when RUN's folder can be written; otherwise a file named after the run
// and a hash of its absolute path under $XDG_DATA_HOME (or ~/.local/share)/faultline/reviews.
std::string reviewFilePath(const std::string& runPath);

// Copies the review (the notes readIncidentNotes gives) into the run file's incident_notes
// table, rewriting the run file through a temporary file, then removes the review file.
// Throws Error naming the file when the run file or its folder cannot be written.
void saveReviewIntoRunFile(const std::string& runPath);

}  // namespace faultline
