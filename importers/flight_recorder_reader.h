#pragma once
// Reads a PyTorch NCCL Flight Recorder dump: the pickle PyTorch writes (through our safe
// pickle reader) or its JSON variant. The rank is the number that ends the file name
// (PyTorch names dumps <prefix><rank>), unless the dump itself says.
#include "model/flight_recorder.h"

#include <string>
#include <vector>

namespace faultline {

class FlightRecorderGroupLists;

// Throws Error naming the file and what was expected. Groups' rank lists come from `lists`
// when given, so that dumps read together share them. A pickle is read by the fast scan
// (flight_recorder_pickle_scanner.h) unless it gives up or `wholeDocument` asks for the
// reference reading, through the document's tree (tests compare the two).
FlightRecorderDump readFlightRecorderDump(const std::string& path, FlightRecorderGroupLists* lists = nullptr, bool wholeDocument = false);
// The same, from the file's bytes already read.
FlightRecorderDump readFlightRecorderDump(const std::string& path, std::string data, FlightRecorderGroupLists* lists = nullptr,
                                          bool wholeDocument = false);
// The dump as the JSON variant of a Flight Recorder dump holding just what the reader keeps:
// readFlightRecorderDump gives the same dump back (import shards carry dumps this way).
std::string flightRecorderDumpToJson(const FlightRecorderDump& dump);

// Every dump in a folder (files whose name ends in a rank number), or the one file given,
// read on every core (`workers` threads; 0: one per core), in file name order.
std::vector<FlightRecorderDump> readFlightRecorderDumps(const std::vector<std::string>& paths, int workers = 0);

}  // namespace faultline
