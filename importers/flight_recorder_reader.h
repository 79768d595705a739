#pragma once
// Reads a PyTorch NCCL Flight Recorder dump: the pickle PyTorch writes (through our safe
// pickle reader) or its JSON variant. The rank is the number that ends the file name
// (PyTorch names dumps <prefix><rank>), unless the dump itself says.
#include "model/flight_recorder.h"

#include <string>
#include <vector>

namespace faultline {

// Throws Error naming the file and what was expected.
FlightRecorderDump readFlightRecorderDump(const std::string& path);
// Every dump in a folder (files whose name ends in a rank number), or the one file given.
std::vector<FlightRecorderDump> readFlightRecorderDumps(const std::vector<std::string>& paths);

}  // namespace faultline
