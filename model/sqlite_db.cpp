#include "sqlite_db.h"

#include "error.h"

#include <sqlite3.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace faultline {

namespace {

// SQLite's words, except for a full disk: "database or disk is full" (or a bare "disk I/O
// error") becomes the cause a user knows, as every other writer names it.
std::string errorText(sqlite3* db, const std::string& sqliteText) {
    if (!db) return sqliteText;
    const int code = sqlite3_extended_errcode(db) & 0xff;
    if (code == SQLITE_FULL || sqlite3_system_errno(db) == ENOSPC) return "no space left on device";
    if (code == SQLITE_IOERR && sqlite3_system_errno(db) != 0) return sqliteText + " (" + std::strerror(sqlite3_system_errno(db)) + ")";
    return sqliteText;
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, Mode mode) : m_path(path) {
    const int flags = mode == Mode::ReadOnly    ? SQLITE_OPEN_READONLY
                      : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                                : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw Error("cannot open " + path + ": " + message);
    }
    sqlite3_extended_result_codes(m_db, 1);
}

SqliteDb::~SqliteDb() { sqlite3_close(m_db); }

void SqliteDb::fail(std::string_view what) const {
    throw Error(m_path + ": " + std::string(what) + ": " + errorText(m_db, sqlite3_errmsg(m_db)));
}

void SqliteDb::exec(std::string_view sql) {
    char* message = nullptr;
    if (sqlite3_exec(m_db, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errmsg(m_db);
        sqlite3_free(message);
        throw Error(m_path + ": " + errorText(m_db, text));
    }
}

std::int64_t SqliteDb::pragmaInt(std::string_view name) {
    SqliteStatement s(*this, "PRAGMA " + std::string(name));
    return s.next() ? s.int64(0) : 0;
}

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql) : m_db(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        db.fail("cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindBlob(int index, std::span<const std::int32_t> values) {
    sqlite3_bind_blob(m_stmt, index, values.data(), static_cast<int>(values.size_bytes()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindBytes(int index, std::string_view bytes) {
    sqlite3_bind_blob(m_stmt, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindBytes(int index, const void* data, std::size_t bytes) {
    sqlite3_bind_blob64(m_stmt, index, bytes ? data : "", static_cast<sqlite3_uint64>(bytes), SQLITE_TRANSIENT);
    return *this;
}

std::span<const std::byte> SqliteStatement::bytes(int column) const {
    const void* p = sqlite3_column_blob(m_stmt, column);
    const auto n = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column));
    return p ? std::span<const std::byte>(static_cast<const std::byte*>(p), n) : std::span<const std::byte>();
}

SqliteStatement& SqliteStatement::bindOptional(int index, std::optional<std::int64_t> value) {
    if (value) return bind(index, *value);
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

void SqliteStatement::execute() {
    if (sqlite3_step(m_stmt) != SQLITE_DONE) m_db.fail("write failed");
    sqlite3_reset(m_stmt);
    m_row = -1;
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteStatement::next() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) {
        ++m_row;
        return true;
    }
    m_row = -1;  // SQLite starts over at the next step
    if (rc == SQLITE_DONE) return false;
    m_db.fail("read failed");
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    m_row = -1;
}

std::int64_t SqliteStatement::int64(int column) const { return sqlite3_column_int64(m_stmt, column); }
std::int32_t SqliteStatement::int32(int column) const {
    const std::int64_t v = sqlite3_column_int64(m_stmt, column);
    if (v < INT32_MIN || v > INT32_MAX)
        throw Error(where(column) + " " + std::to_string(v) + " does not fit 32 bits (expected an index or count from " + std::to_string(INT32_MIN) + " to " +
                    std::to_string(INT32_MAX) + ")");
    return static_cast<std::int32_t>(v);
}

std::string SqliteStatement::where(int column) const {
    const char* table = sqlite3_column_table_name(m_stmt, column);
    const char* name = sqlite3_column_name(m_stmt, column);
    return (table ? std::string(table) + " " : std::string()) + "row " + std::to_string(m_row) + ": " + (name ? name : "column " + std::to_string(column));
}
double SqliteStatement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string SqliteStatement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

std::optional<std::int64_t> SqliteStatement::optionalInt64(int column) const {
    if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(m_stmt, column);
}

std::vector<std::int32_t> SqliteStatement::int32Blob(int column) const {
    const void* p = sqlite3_column_blob(m_stmt, column);
    const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column));
    if (bytes % sizeof(std::int32_t) != 0)
        throw Error(where(column) + ": a blob of " + std::to_string(bytes) + " bytes is not a list of 4-byte numbers (expected a multiple of 4 bytes)");
    std::vector<std::int32_t> out(bytes / sizeof(std::int32_t));
    if (p && !out.empty()) std::memcpy(out.data(), p, out.size() * sizeof(std::int32_t));
    return out;
}

std::string_view SqliteStatement::blobView(int column) const {
    const void* p = sqlite3_column_blob(m_stmt, column);
    const auto n = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column));
    return p ? std::string_view(static_cast<const char*>(p), n) : std::string_view();
}

}  // namespace faultline
