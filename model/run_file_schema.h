#pragma once
// The SQL schema of run files, version kRunFileSchemaVersion. docs/run-file.md describes it.
// Version 2 added `jobs` and `downtimes.job`; version-1 files are read as having neither.
// Version 3 added `failures.ranks` and `failures.suspect_ranks`; older files read with none.
// Version 4 keeps collectives in `collective_chunks` (collective_chunks.h) instead of a row
// each in `collectives`, and adds the Flight Recorder hang analysis (`hangs`, `hang_findings`,
// `hang_origins`); older files are read from `collectives`, with no hang.
// Version 5 added the telemetry tables (kTelemetryTables); older files read with no telemetry.
// Version 6 added the fabric's kind (`fabric`) and `switches.rail`; older files read as RoCE
// fabrics without rails.
// Version 7 added the fleet: `clusters` (name, hall, building, fabric), `zones.cluster` and
// `switches.cluster`; older files read as one cluster of the file's fabric kind. It also added
// `failures.jobs` (the jobs a failure ended); older files read with none.
// Version 8 added `telemetry_raw.levels_from`: the levels below it are not stored for that
// series, its samples stand in for them; older files read with every level stored.
// `hosts.gpu_count_assumed` was added to version 7 without a bump (older readers name the
// columns they read, so they read such a file as before); files without it read as counts the
// files gave.
#include "error.h"

#include <array>
#include <cstddef>
#include <string>

namespace faultline::schema {

// Enums are stored as words, so a run file reads the same whatever order the code keeps.
inline constexpr std::array<const char*, 6> kComponentKinds = {"none", "gpu", "host", "nic", "switch", "link"};
inline constexpr std::array<const char*, 3> kSwitchTiers = {"rtsw", "ctsw", "atsw"};
inline constexpr std::array<const char*, 3> kFabricKinds = {"roce-clos", "infiniband-fat-tree", "tree"};
inline constexpr std::array<const char*, 2> kNodeKinds = {"nic", "switch"};
inline constexpr std::array<const char*, 2> kCheckpointKinds = {"save", "load"};

template <typename Enum, std::size_t N>
const char* enumText(const std::array<const char*, N>& names, Enum value) {
    return names[static_cast<std::size_t>(value)];
}

template <typename Enum, std::size_t N>
Enum enumFromText(const std::array<const char*, N>& names, const std::string& text, const char* what) {
    for (std::size_t i = 0; i < N; ++i)
        if (text == names[i]) return static_cast<Enum>(i);
    throw Error("unknown " + std::string(what) + " \"" + text + "\"");
}

// The fabric: zones, racks, hosts, GPUs, NICs, switches and links (topology_tables.h).
inline constexpr const char* kTopologyTables = R"sql(
CREATE TABLE clusters(id INTEGER PRIMARY KEY, name TEXT NOT NULL, hall TEXT NOT NULL, building TEXT NOT NULL,
                      fabric TEXT NOT NULL);
CREATE TABLE zones(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cluster INTEGER NOT NULL DEFAULT 0);
CREATE TABLE racks(id INTEGER PRIMARY KEY, name TEXT NOT NULL, zone INTEGER NOT NULL,
                   row INTEGER NOT NULL, position INTEGER NOT NULL);
CREATE TABLE hosts(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rack INTEGER NOT NULL,
                   first_gpu INTEGER NOT NULL, gpu_count INTEGER NOT NULL,
                   first_nic INTEGER NOT NULL, nic_count INTEGER NOT NULL,
                   gpu_count_assumed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE gpus(id INTEGER PRIMARY KEY, host INTEGER NOT NULL, idx INTEGER NOT NULL, pci_bus_id TEXT);
CREATE TABLE nics(id INTEGER PRIMARY KEY, host INTEGER NOT NULL, idx INTEGER NOT NULL);
CREATE TABLE fabric(kind TEXT NOT NULL);
CREATE TABLE switches(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tier TEXT NOT NULL,
                      zone INTEGER NOT NULL, rack INTEGER NOT NULL, rail INTEGER NOT NULL DEFAULT -1,
                      cluster INTEGER NOT NULL DEFAULT 0);
CREATE TABLE links(id INTEGER PRIMARY KEY, lower_kind TEXT NOT NULL, lower_index INTEGER NOT NULL,
                   upper_kind TEXT NOT NULL, upper_index INTEGER NOT NULL);
)sql";

// Everything else a run holds; created together with kTopologyTables.
inline constexpr const char* kTables = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE failures(id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, cause TEXT NOT NULL,
                      component_kind TEXT NOT NULL, component_index INTEGER NOT NULL,
                      xid INTEGER NOT NULL, gpus BLOB, detail TEXT, ranks BLOB, suspect_ranks BLOB, jobs BLOB);
CREATE TABLE downtimes(id INTEGER PRIMARY KEY, begin_ns INTEGER NOT NULL, detected_ns INTEGER NOT NULL,
                       restarted_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
                       lost_work_ns INTEGER NOT NULL, planned INTEGER NOT NULL,
                       cause TEXT NOT NULL, failure INTEGER NOT NULL, job INTEGER NOT NULL);
CREATE TABLE jobs(id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, name TEXT NOT NULL, parent INTEGER NOT NULL,
                  restarts INTEGER NOT NULL, hosts BLOB, gpus INTEGER NOT NULL, submit_ns INTEGER,
                  start_ns INTEGER, end_ns INTEGER, state TEXT NOT NULL, exit_code TEXT NOT NULL,
                  reason TEXT NOT NULL, in_run INTEGER NOT NULL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, begin_ns INTEGER NOT NULL,
                         end_ns INTEGER NOT NULL, step INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE TABLE steps(id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, step INTEGER NOT NULL,
                   duration_ns INTEGER NOT NULL);
CREATE TABLE rank_steps(id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, step INTEGER NOT NULL,
                        time_ns INTEGER NOT NULL, duration_ns INTEGER NOT NULL);
CREATE TABLE stragglers(id INTEGER PRIMARY KEY, gpu INTEGER NOT NULL, begin_ns INTEGER NOT NULL,
                        end_ns INTEGER NOT NULL, slowdown REAL NOT NULL, cause TEXT);
CREATE TABLE collective_ops(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE process_groups(id INTEGER PRIMARY KEY, name TEXT NOT NULL, ranks BLOB);
CREATE TABLE collective_chunks(id INTEGER PRIMARY KEY, count INTEGER NOT NULL, records BLOB NOT NULL);
CREATE TABLE hangs(id INTEGER PRIMARY KEY, dumps INTEGER NOT NULL, ranks_without_dump BLOB, culprits BLOB);
CREATE TABLE hang_findings(id INTEGER PRIMARY KEY, process_group TEXT NOT NULL, process_group_desc TEXT NOT NULL,
                           group_ranks BLOB, seq INTEGER NOT NULL, op TEXT NOT NULL, size TEXT NOT NULL,
                           dtype TEXT NOT NULL, enqueued_ns INTEGER NOT NULL, missing BLOB, stuck BLOB,
                           mismatches TEXT NOT NULL);
CREATE TABLE hang_origins(id INTEGER PRIMARY KEY, finding INTEGER NOT NULL, culprits BLOB, waiting BLOB);
CREATE TABLE rank_map(rank INTEGER PRIMARY KEY, gpu INTEGER NOT NULL);
)sql";

// GPU telemetry (model/telemetry.h, model/telemetry_tables.h), since version 4. Arrays are
// little-endian blobs: buckets and times int64, values float32.
inline constexpr int kTelemetrySchemaVersion = 5;
inline constexpr const char* kTelemetryTables = R"sql(
CREATE TABLE telemetry_metrics(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE telemetry_levels(level INTEGER PRIMARY KEY, bucket_ns INTEGER NOT NULL);
CREATE TABLE telemetry_summary(id INTEGER PRIMARY KEY, level INTEGER NOT NULL, metric INTEGER NOT NULL,
                               gpu INTEGER NOT NULL, buckets BLOB NOT NULL, min BLOB NOT NULL,
                               mean BLOB NOT NULL, max BLOB NOT NULL);
CREATE TABLE telemetry_raw(id INTEGER PRIMARY KEY, metric INTEGER NOT NULL, gpu INTEGER NOT NULL,
                           levels_from INTEGER NOT NULL DEFAULT 0, times BLOB NOT NULL, samples BLOB NOT NULL);
)sql";
// The version that added telemetry_raw.levels_from.
inline constexpr int kTelemetryStandInVersion = 8;
inline constexpr const char* kTelemetryIndexes = R"sql(
CREATE INDEX telemetry_summary_series ON telemetry_summary(level, metric, gpu);
CREATE INDEX telemetry_raw_series ON telemetry_raw(metric, gpu);
)sql";

// Figures worked out at import (model/run_file.h's StoredFigures). Added within schema 7:
// a file without it reads as before, and an older reader ignores it.
inline constexpr const char* kFigureTables = R"sql(
CREATE TABLE run_figures(name TEXT PRIMARY KEY, value TEXT NOT NULL);
)sql";

// Created after the rows are in: one sort per index instead of a b-tree insert per row.
inline constexpr const char* kIndexes = R"sql(
CREATE INDEX IF NOT EXISTS failures_time ON failures(time_ns);
CREATE INDEX IF NOT EXISTS downtimes_time ON downtimes(begin_ns, end_ns);
CREATE INDEX IF NOT EXISTS checkpoints_time ON checkpoints(begin_ns);
CREATE INDEX IF NOT EXISTS steps_time ON steps(time_ns);
CREATE INDEX IF NOT EXISTS stragglers_time ON stragglers(begin_ns, end_ns);
CREATE INDEX IF NOT EXISTS stragglers_gpu ON stragglers(gpu);
)sql";

}  // namespace faultline::schema
