#pragma once
// The fast way through a Flight Recorder pickle: the opcodes read straight into the dump's
// compact entries, with no value tree. Only what the dump keeps is looked at (an entry's
// group, sequence number, op, input shapes, state and creation time; pg_config; pg_status);
// everything else (stack frames, output shapes, timings) is stepped over. The full reader
// (FlightRecorderDocument, then the dump read from its tree) stays the reference: whenever
// the pickle holds anything this one does not read exactly as the full reader would (an
// opcode it does not take, a container reached through the memo, a field of an unexpected
// kind, a repeated key, an error of any sort), it gives up and the caller reads the whole
// document, which gives the dump or says what is wrong. So the two never differ.
#include "model/flight_recorder.h"

#include <string_view>

namespace faultline {

class FlightRecorderGroupLists;

// Fills `dump` (path and rank aside: the caller's) from `data`, a pickle, and returns true;
// false, with `dump` in any state, when the full reader must read it.
// With `timings`, also fills dump.timings (what the run's collectives need).
bool scanFlightRecorderPickle(std::string_view data, FlightRecorderDump& dump, FlightRecorderGroupLists& lists, bool timings = false);

}  // namespace faultline
