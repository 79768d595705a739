#pragma once
// What a reviewer writes about an incident: notes, the root cause they confirmed and tags.
// Kept in the run file's own table, written the moment they change in a transaction of
// their own (so they survive a crash of the app); the imported data is never touched.
#include "root_cause.h"
#include "time.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

class SqliteDb;

struct IncidentNote {
    Nanos incidentBegin = 0;  // identifies the incident: its first symptom's time
    std::string notes;
    std::optional<RootCause> confirmedCause;
    std::vector<std::string> tags;
    std::int64_t updatedEpochNs = 0;
};

class IncidentNotesStore {
public:
    // Opens the run file for notes only; throws Error when it cannot be written.
    explicit IncidentNotesStore(const std::string& runPath);
    ~IncidentNotesStore();
    IncidentNotesStore(const IncidentNotesStore&) = delete;
    IncidentNotesStore& operator=(const IncidentNotesStore&) = delete;

    std::map<Nanos, IncidentNote> load();
    void save(const IncidentNote& note);  // an empty note is removed

private:
    std::unique_ptr<SqliteDb> m_db;
};

// The notes a run file holds, read without writing to it (exports and reports read them from
// a run that may be read-only); none when it has no notes table.
std::map<Nanos, IncidentNote> readIncidentNotes(const std::string& runPath);

// "hbm, repeat offender" -> {"hbm", "repeat offender"}; and back.
std::vector<std::string> splitTags(const std::string& text);
std::string joinTags(const std::vector<std::string>& tags);

}  // namespace faultline
