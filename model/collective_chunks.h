#pragma once
// How a run file keeps its collectives: in chunks of records packed as varints, not a row
// each. They are most of a traced run (a Flight Recorder set of 16,384 ranks holds tens of
// millions), readers always read them all in order, and one INSERT per record plus its
// indexes cost seconds a million; a chunk is written and read in a few milliseconds.
//
// A record is seven varints: rank, group, op, seq, enter (as the step from the previous
// record's enter, which the run's time order keeps small), exit - enter, bytes; each zigzag
// coded so that any int64 round-trips.
#include "run.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

inline constexpr std::size_t kCollectivesPerChunk = 65536;
// A record is seven varints of a byte or more: what bounds the count a chunk can hold.
inline constexpr std::int64_t kMinCollectiveRecordBytes = 7;

std::string encodeCollectiveChunk(std::span<const CollectiveRecord> records);
// Appends the chunk's `count` records to `out`; throws Error saying what is wrong with it
// (the caller names the table and row).
void decodeCollectiveChunk(std::string_view chunk, std::size_t count, CollectiveRecords& out);

}  // namespace faultline
