#include "incident_notes.h"

#include "error.h"
#include "partial_file.h"
#include "review_file.h"
#include "run_file.h"
#include "sqlite_db.h"

#include <chrono>
#include <filesystem>

namespace faultline {

namespace {

constexpr const char* kTable =
    "CREATE TABLE IF NOT EXISTS incident_notes(incident_begin_ns INTEGER PRIMARY KEY, notes TEXT NOT NULL, "
    "confirmed_cause TEXT, tags TEXT NOT NULL, updated_epoch_ns INTEGER NOT NULL)";

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool isEmpty(const IncidentNote& note) { return trimmed(note.notes).empty() && !note.confirmedCause && note.tags.empty(); }

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

void checkIsRunFile(const std::string& runPath) {
    SqliteDb db(runPath, SqliteDb::Mode::ReadOnly);
    bool isRun = false;
    try {
        isRun = db.pragmaInt("application_id") == kRunFileApplicationId;
    } catch (const Error&) {
        isRun = false;  // not a database at all
    }
    if (!isRun) throw Error(runPath + " is not a Faultline run file: notes can only be kept for one");
}

}  // namespace

IncidentNotesStore::IncidentNotesStore(const std::string& runPath) : m_runPath(runPath), m_reviewPath(reviewFilePath(runPath)) {
    checkIsRunFile(runPath);
}

std::map<Nanos, IncidentNote> IncidentNotesStore::load() const { return readIncidentNotes(m_runPath); }

void IncidentNotesStore::save(const IncidentNote& note) {
    std::map<Nanos, IncidentNote> notes = load();
    if (isEmpty(note)) {
        notes.erase(note.incidentBegin);
    } else {
        IncidentNote stamped = note;
        stamped.updatedEpochNs =
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        notes[note.incidentBegin] = std::move(stamped);
    }
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::absolute(m_reviewPath).parent_path(), ec);
    writeThroughPartial(m_reviewPath, [&](const std::string& partial) {
        {
            SqliteDb db(partial, SqliteDb::Mode::Create);
            db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
            db.exec("PRAGMA application_id=" + std::to_string(kReviewFileApplicationId) +
                    "; PRAGMA user_version=" + std::to_string(kReviewFileSchemaVersion) + ";");
            db.exec("CREATE TABLE review_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            SqliteStatement meta(db, "INSERT INTO review_meta VALUES('run_file', ?)");
            meta.bind(1, std::string_view(std::filesystem::absolute(m_runPath).string())).execute();
        }
        writeIncidentNotesTable(partial, notes);
    });
}

std::map<Nanos, IncidentNote> readRunFileNotes(const std::string& runPath) { return readNotesTable(runPath); }

std::map<Nanos, IncidentNote> readIncidentNotes(const std::string& runPath) {
    const std::string review = reviewFilePath(runPath);
    std::error_code ec;
    if (std::filesystem::exists(review, ec)) {
        SqliteDb probe(review, SqliteDb::Mode::ReadOnly);
        if (probe.pragmaInt("application_id") != kReviewFileApplicationId)
            throw Error(review + " is not a Faultline review file (notes of " + runPath + " are expected there)");
        return readNotesTable(review);
    }
    return readNotesTable(runPath);
}

void writeIncidentNotesTable(const std::string& path, const std::map<Nanos, IncidentNote>& notes) {
    SqliteDb db(path, SqliteDb::Mode::ReadWrite);
    db.exec("BEGIN");
    db.exec(kTable);
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
        const std::string tag = trimmed(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
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

}  // namespace faultline
