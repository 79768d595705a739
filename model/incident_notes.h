#pragma once
// What a reviewer writes about an incident: notes, the root cause they confirmed and tags.
// Kept in the review file beside the run (see review_file.h), written whole the moment they
// change (so they survive a crash of the app); the run file itself is never touched.
#include "root_cause.h"
#include "time.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct IncidentNote {
    Nanos incidentBegin = 0;  // identifies the incident: its first symptom's time
    std::string notes;
    std::optional<RootCause> confirmedCause;
    std::vector<std::string> tags;
    std::int64_t updatedEpochNs = 0;
};

class IncidentNotesStore {
public:
    // Checks that `runPath` is a run file (throws Error otherwise); writes nothing.
    explicit IncidentNotesStore(const std::string& runPath);

    std::map<Nanos, IncidentNote> load() const;
    // Writes the whole review, with `note` changed, into the review file; an empty note is
    // removed. Throws Error when the review file cannot be written.
    void save(const IncidentNote& note);
    const std::string& reviewPath() const { return m_reviewPath; }

private:
    std::string m_runPath;
    std::string m_reviewPath;
};

// The notes of a run: its review file's when there is one (it holds the whole review, seeded
// from the run file's own notes at its first save), else those saved into the run file; none
// when neither has any. Reads only.
std::map<Nanos, IncidentNote> readIncidentNotes(const std::string& runPath);

// The notes saved into a run file itself (its incident_notes table), read-only.
std::map<Nanos, IncidentNote> readRunFileNotes(const std::string& runPath);

// Writes `notes` as an incident_notes table into the database at `path` (replacing one).
void writeIncidentNotesTable(const std::string& path, const std::map<Nanos, IncidentNote>& notes);

// "hbm, repeat offender" -> {"hbm", "repeat offender"}; and back.
// A note as a page, a caption or an editor shows it: at most `maxBytes` (cut at a character
// boundary), then how much more the review holds. A hostile review's 40 MB note stalls no view.
inline constexpr std::size_t kNoteShownBytes = 64 * 1024;
std::string noteExcerpt(const std::string& notes, std::size_t maxBytes = kNoteShownBytes);

std::vector<std::string> splitTags(const std::string& text);
std::string joinTags(const std::vector<std::string>& tags);

}  // namespace faultline
