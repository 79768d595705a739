#pragma once
// A run file changed behind the writer's back, as a damaged or hand-edited one would be, and
// what the reader says of it. For suites that link the model library (SQLite, readRunFile).
#include "model/error.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace faultline::test {

// Runs `sql` on the run file at `path`; returns how many rows it changed.
inline int runSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    int changed = 0;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        ADD_FAILURE() << "cannot open " << path;
    else if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        ADD_FAILURE() << sqlite3_errmsg(db) << " in: " << sql;
    else
        changed = sqlite3_changes(db);
    sqlite3_close(db);
    return changed;
}

// The message readRunFile refuses the file at `path` with; a failure of the test when it reads it.
inline std::string errorReading(const std::string& path) {
    try {
        readRunFile(path);
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << path << " was read";
    return {};
}

}  // namespace faultline::test
