#pragma once
// The run's telemetry as SQLite tables (schema::kTelemetryTables, run file version 4).
#include "run_validity.h"
#include "sqlite_db.h"
#include "telemetry.h"

#include <memory>

namespace faultline {

void writeTelemetryTables(SqliteDb& db, const Telemetry& telemetry);
// The metrics and levels only; each level's series and the raw samples are read from `db`
// when first asked for (Telemetry::level, rawSeries) and checked against `bounds` (its metrics are the file's) then.
// Version-4 and older files have no telemetry: an empty Telemetry.
Telemetry openTelemetryTables(const std::shared_ptr<SqliteDb>& db, std::int64_t version, TelemetryBounds bounds);

}  // namespace faultline
