#include "incident_notes.h"

#include "error.h"
#include "review_file.h"
#include "sqlite_db.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace faultline {

namespace {

constexpr const char* kNotesTable =
    "CREATE TABLE IF NOT EXISTS incident_notes(incident_begin_ns INTEGER PRIMARY KEY, notes TEXT NOT NULL, "
    "confirmed_cause TEXT, tags TEXT NOT NULL, updated_epoch_ns INTEGER NOT NULL)";

bool isEmpty(const IncidentNote& note) { return trimmedText(note.notes).empty() && !note.confirmedCause && note.tags.empty(); }

std::map<Nanos, IncidentNote> readNotesTable(const std::string& path) {
    SqliteDb db(path, SqliteDb::Mode::ReadOnly);
    SqliteStatement exists(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'incident_notes'");
    if (!exists.next() || exists.int64(0) == 0) return {};
    std::map<Nanos, IncidentNote> out;
    for (SqliteStatement s(db, "SELECT incident_begin_ns, notes, confirmed_cause, tags, updated_epoch_ns FROM incident_notes"); s.next();) {
        IncidentNote n;
        n.incidentBegin = s.int64(0);
        n.notes = s.text(1);
        if (const std::string cause = s.text(2); !cause.empty()) n.confirmedCause = rootCauseFromKey(cause);
        n.tags = splitTags(s.text(3));
        n.updatedEpochNs = s.int64(4);
        out[n.incidentBegin] = std::move(n);
    }
    return out;
}

}  // namespace

IncidentNotesStore::IncidentNotesStore(const std::string& runPath) : m_runPath(runPath), m_reviewPath(reviewFilePath(runPath)) {
    requireRunFile(runPath);
}

std::map<Nanos, IncidentNote> IncidentNotesStore::load() const { return readIncidentNotes(m_runPath); }

void IncidentNotesStore::save(const IncidentNote& note) {
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    // Only this note changes in the review as it is on disk now: the other notes and the
    // viewpoints are whatever the last writer left, never this store's older copy.
    updateReview(m_runPath, m_reviewPath, [&](Review& review) {
        const auto current = review.notes.find(note.incidentBegin);
        if (isEmpty(note)) {
            if (current != review.notes.end()) review.notes.erase(current);
            return;
        }
        IncidentNote stamped = note;
        // The newest write of a note wins, and reads as newest even where this machine's
        // clock is behind the one that wrote the note before.
        stamped.updatedEpochNs = current == review.notes.end() ? now : std::max(now, current->second.updatedEpochNs + 1);
        review.notes[note.incidentBegin] = std::move(stamped);
    });
}

std::map<Nanos, IncidentNote> readRunFileNotes(const std::string& runPath) { return readNotesTable(runPath); }

std::map<Nanos, IncidentNote> readIncidentNotes(const std::string& runPath) { return readNotesTable(reviewSource(runPath)); }

void writeIncidentNotesTable(const std::string& path, const std::map<Nanos, IncidentNote>& notes) {
    SqliteDb db(path, SqliteDb::Mode::ReadWrite);
    db.exec("BEGIN");
    db.exec(kNotesTable);
    db.exec("DELETE FROM incident_notes");
    SqliteStatement s(db, "INSERT INTO incident_notes VALUES(?, ?, ?, ?, ?)");
    for (const auto& [begin, note] : notes) {
        if (isEmpty(note)) continue;
        s.bind(1, note.incidentBegin).bind(2, std::string_view(note.notes));
        s.bind(3, note.confirmedCause ? rootCauseKey(*note.confirmedCause) : std::string_view());
        s.bind(4, std::string_view(joinTags(note.tags))).bind(5, note.updatedEpochNs).execute();
    }
    db.exec("COMMIT");
}

std::vector<std::string> splitTags(const std::string& text) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = text.find(',', from);
        const std::string tag = trimmedText(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (!tag.empty()) out.push_back(tag);
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    return out;
}

std::string joinTags(const std::vector<std::string>& tags) {
    std::string out;
    for (const std::string& t : tags) out += (out.empty() ? "" : ", ") + t;
    return out;
}

std::string noteExcerpt(const std::string& notes, std::size_t maxBytes) {
    if (notes.size() <= maxBytes) return notes;
    std::size_t cut = maxBytes;
    while (cut > 0 && (static_cast<unsigned char>(notes[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    return notes.substr(0, cut) + "\n[... " + std::to_string(notes.size() - cut) + " more bytes in the review file]";
}

}  // namespace faultline
