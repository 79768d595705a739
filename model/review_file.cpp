#include "review_file.h"

#include "checked_write.h"
#include "error.h"
#include "incident_notes.h"
#include "partial_file.h"
#include "review_lock.h"
#include "run_file.h"
#include "sqlite_db.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

std::string trimmedText(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

namespace {

// FNV-1a: a stable name for a run's review in the shared folder, the same in every build.
std::string pathHash(const std::string& text) {
    std::uint64_t h = 14695981039346656037ull;
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

std::filesystem::path userReviewFolder() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "faultline" / "reviews";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".local" / "share" / "faultline" / "reviews";
}

// Writable for this user, and not write-protected by its mode bits: a reviewer who made a
// run read-only (chmod a-w) means it, even when running as root.
bool writable(const std::filesystem::path& path) {
    std::error_code ec;
    const auto perms = std::filesystem::status(path, ec).permissions();
    if (ec) return false;
    using P = std::filesystem::perms;
    return ::access(path.c_str(), W_OK) == 0 && (perms & (P::owner_write | P::group_write | P::others_write)) != P::none;
}

std::mutex g_writtenMutex;
std::map<std::string, std::optional<ReviewStamp>>& writtenHere() {
    static auto* stamps = new std::map<std::string, std::optional<ReviewStamp>>;  // never destroyed: read at exit too
    return *stamps;
}

std::string absoluteText(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

// Called while the review's lock is held: nobody else wrote it between the write and this.
void rememberWrittenHere(const std::string& reviewPath) {
    const std::lock_guard lock(g_writtenMutex);
    writtenHere()[absoluteText(reviewPath)] = reviewStampNow(reviewPath);
}

}  // namespace

std::optional<ReviewStamp> reviewStampNow(const std::string& reviewPath) {
    struct stat st {};
    if (::stat(reviewPath.c_str(), &st) != 0) return std::nullopt;
    return ReviewStamp{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino), static_cast<std::int64_t>(st.st_size),
                       static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

bool lastWrittenHere(const std::string& reviewPath, std::optional<ReviewStamp>& stamp) {
    const std::lock_guard lock(g_writtenMutex);
    const auto it = writtenHere().find(absoluteText(reviewPath));
    if (it == writtenHere().end()) return false;
    stamp = it->second;
    return true;
}

std::string reviewFilePath(const std::string& runPath) {
    const std::string beside = runPath + "-review";
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(runPath, ec);
    const std::filesystem::path folder = absolute.parent_path();
    if (std::filesystem::exists(beside, ec) || writable(folder)) return beside;
    return (userReviewFolder() / (absolute.filename().string() + "-" + pathHash(absolute.string()) + "-review")).string();
}

void requireRunFile(const std::string& runPath) {
    SqliteDb db(runPath, SqliteDb::Mode::ReadOnly);
    bool isRun = false;
    try {
        isRun = db.pragmaInt("application_id") == kRunFileApplicationId;
    } catch (const Error&) {
        isRun = false;  // not a database at all
    }
    if (!isRun) throw Error(runPath + " is not a Faultline run file: notes can only be kept for one");
}

std::string reviewSource(const std::string& runPath) {
    const std::string review = reviewFilePath(runPath);
    std::error_code ec;
    if (!std::filesystem::exists(review, ec)) return runPath;
    SqliteDb probe(review, SqliteDb::Mode::ReadOnly);
    if (probe.pragmaInt("application_id") != kReviewFileApplicationId)
        throw Error(review + " is not a Faultline review file (the review of " + runPath + " is expected there)");
    // A newer Faultline may have changed what the tables mean: refused, never misread, and
    // never written over (every save reads the review first).
    if (const int version = probe.pragmaInt("user_version"); version > kReviewFileSchemaVersion)
        throw Error(review + " was written by a newer Faultline (review format " + std::to_string(version) + "; this one reads format " +
                    std::to_string(kReviewFileSchemaVersion) + "): not read and left as it is; open it with the newer version");
    return review;
}

void writeReviewFile(const std::string& runPath, const std::string& reviewPath, const std::map<Nanos, IncidentNote>& notes,
                     const std::vector<Viewpoint>& viewpoints) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::absolute(reviewPath).parent_path(), ec);
    writeThroughPartial(reviewPath, [&](const std::string& partial) {
        {
            SqliteDb db(partial, SqliteDb::Mode::Create);
            db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
            db.exec("PRAGMA application_id=" + std::to_string(kReviewFileApplicationId) +
                    "; PRAGMA user_version=" + std::to_string(kReviewFileSchemaVersion) + ";");
            db.exec("CREATE TABLE review_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            SqliteStatement meta(db, "INSERT INTO review_meta VALUES('run_file', ?)");
            meta.bind(1, std::string_view(std::filesystem::absolute(runPath).string())).execute();
        }
        writeIncidentNotesTable(partial, notes);
        writeViewpointsTable(partial, viewpoints);
    });
}

void updateReview(const std::string& runPath, const std::string& reviewPath, const std::function<void(Review&)>& change) {
    const ReviewLock lock(reviewPath);
    Review review{readIncidentNotes(runPath), readViewpoints(runPath)};
    change(review);
    writeReviewFile(runPath, reviewPath, review.notes, review.viewpoints);
    rememberWrittenHere(reviewPath);
}

void saveReviewIntoRunFile(const std::string& runPath) {
    const std::string review = reviewFilePath(runPath);
    if (!writable(runPath))
        throw Error(runPath + " is write-protected: the review stays in " + review);
    if (!writable(std::filesystem::absolute(runPath).parent_path()))
        throw Error("the folder of " + runPath + " is write-protected: the review stays in " + review);
    const ReviewLock lock(review);  // a note typed meanwhile waits, and then goes into a new review
    const std::map<Nanos, IncidentNote> notes = readIncidentNotes(runPath);
    const std::vector<Viewpoint> viewpoints = readViewpoints(runPath);
    writeThroughPartial(runPath, [&](const std::string& partial) {
        copyFileBytes(runPath, partial);  // "no space left on device", where copy_file said "Input/output error"
        writeIncidentNotesTable(partial, notes);
        writeViewpointsTable(partial, viewpoints);
    });
    std::error_code ec;
    std::filesystem::remove(review, ec);
    rememberWrittenHere(review);
}

}  // namespace faultline
