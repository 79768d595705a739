#pragma once
// The topology as SQLite tables (schema::kTopologyTables): how run files and partial-import
// shard files store a fabric.
#include "sqlite_db.h"
#include "topology.h"

namespace faultline {

void writeTopologyTables(SqliteDb& db, const Topology& topology);
// Reads and validates (Topology::validate) the tables.
Topology readTopologyTables(SqliteDb& db);

}  // namespace faultline
