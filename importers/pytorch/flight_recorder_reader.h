#pragma once
// Reads a PyTorch NCCL Flight Recorder dump: the pickle PyTorch writes (through our safe
// pickle reader) or its JSON variant. The rank is the number that ends the file name
// (PyTorch names dumps <prefix><rank>), unless the dump itself says.
#include "model/flight_recorder.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

class FlightRecorderGroupLists;

struct FlightRecorderReading {
    // Groups' rank lists are kept here when given, so that dumps read together share them.
    FlightRecorderGroupLists* lists = nullptr;
    // A pickle is read by the fast scan (flight_recorder_pickle_scanner.h) unless it gives up
    // or this asks for the reference reading, through the document's tree (tests compare the two).
    bool wholeDocument = false;
    // Also read what the run's collectives need (FlightRecorderDump::timings): an import does.
    bool timings = false;
};

// Throws Error naming the file and what was expected.
FlightRecorderDump readFlightRecorderDump(const std::string& path, const FlightRecorderReading& how = {});
// The same, from the file's bytes already read.
FlightRecorderDump readFlightRecorderDump(const std::string& path, std::string_view data, const FlightRecorderReading& how = {});
// The dump as the JSON variant of a Flight Recorder dump holding just what the reader keeps:
// readFlightRecorderDump gives the same dump back (import shards carry dumps this way).
std::string flightRecorderDumpToJson(const FlightRecorderDump& dump);

// Every dump in a folder (files whose name ends in a rank number), or the one file given,
// read on every core (`workers` threads; 0: one per core), in file name order.
std::vector<FlightRecorderDump> readFlightRecorderDumps(const std::vector<std::string>& paths, int workers = 0);

}  // namespace faultline
