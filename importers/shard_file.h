#pragma once
// A shard of a sharded import (`faultline-cli import --shard I/N`): what one worker read of
// every N-th input, kept as the importers read it, before any run is built. `faultline-cli
// merge` puts the shards' files back in input order and builds the run from all of them, so
// the run is the one a single import of every input gives, whatever the number of shards.
//
// An SQLite file like a run file (one transaction into a partial file, renamed when
// complete), with its own application id so neither is mistaken for the other.
#include "importers/events/import_report.h"
#include "importers/events/imported_events.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

inline constexpr std::int32_t kShardFileApplicationId = 0x46544C53;  // "FTLS"
inline constexpr int kShardFileVersion = 2;  // 2 added flight_recorder_dumps

// One input file as read: where it stood among all inputs, its report, its events.
struct ShardedFile {
    std::size_t order = 0;
    FileReport report;
    ImportedEvents events;  // worldSize and topology included
};

struct ImportShard {
    int index = 0;            // 0-based
    int count = 1;
    std::size_t inputs = 0;   // files among all shards' inputs
    std::string runName;      // from the inputs, as a single import would name the run
    std::vector<ShardedFile> files;
};

void writeShardFile(const ImportShard& shard, const std::string& path);
ImportShard readShardFile(const std::string& path);

}  // namespace faultline
