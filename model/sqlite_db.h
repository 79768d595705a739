#pragma once
// A thin RAII layer over the SQLite C API: errors become faultline::Error naming the file.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace faultline {

class SqliteDb;

class SqliteStatement {
public:
    SqliteStatement(SqliteDb& db, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Binding: parameters are numbered from 1, as in SQLite.
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bindBlob(int index, std::span<const std::int32_t> values);
    SqliteStatement& bindBytes(int index, std::string_view bytes);  // a BLOB of these bytes
    SqliteStatement& bindOptional(int index, std::optional<std::int64_t> value);  // NULL when unset
    // Any array of plain numbers, as their little-endian bytes.
    SqliteStatement& bindBytes(int index, const void* data, std::size_t bytes);
    // Runs a statement that returns no rows, then resets it for the next bindings.
    void execute();
    // Steps to the next row; false when done.
    bool next();
    // Starts the statement over, keeping its bindings, so that it can be bound and stepped again
    // before it was stepped to its end.
    void reset();

    // Reading: columns are numbered from 0, as in SQLite.
    std::int64_t int64(int column) const;
    // Checked at its full 64 bits: a value that does not fit throws Error naming the table,
    // row and column ("failures row 0: component_index 4294967299 does not fit 32 bits ..."),
    // never narrowed into another, valid index.
    std::int32_t int32(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    // A list of 4-byte numbers; a blob whose length is not a multiple of 4 throws Error.
    std::vector<std::int32_t> int32Blob(int column) const;
    std::string_view blobView(int column) const;  // a BLOB's bytes as text, valid until the next step
    std::optional<std::int64_t> optionalInt64(int column) const;  // unset for NULL
    // A blob's bytes, valid until the next step.
    std::span<const std::byte> bytes(int column) const;

    // "failures row 3, column ranks" for messages about the current row (rows counted from 0
    // since the last reset, as RunViolation counts them).
    std::string where(int column) const;

private:
    SqliteDb& m_db;
    sqlite3_stmt* m_stmt = nullptr;
    std::int64_t m_row = -1;
};

class SqliteDb {
public:
    enum class Mode { ReadOnly, ReadWrite, Create };
    SqliteDb(const std::string& path, Mode mode);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    void exec(std::string_view sql);
    std::int64_t pragmaInt(std::string_view name);
    const std::string& path() const { return m_path; }
    sqlite3* handle() const { return m_db; }
    // Throws Error with `what` and SQLite's own words for the last failure.
    [[noreturn]] void fail(std::string_view what) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
};

}  // namespace faultline
