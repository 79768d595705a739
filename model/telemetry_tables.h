#pragma once
// The run's telemetry as SQLite tables (schema::kTelemetryTables, run file version 4).
#include "sqlite_db.h"
#include "telemetry.h"

namespace faultline {

void writeTelemetryTables(SqliteDb& db, const Telemetry& telemetry);
// Version-3 and older files have no telemetry: an empty Telemetry.
Telemetry readTelemetryTables(SqliteDb& db, std::int64_t version);

}  // namespace faultline
