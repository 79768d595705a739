#pragma once
// The importers' one clock: absolute times as Unix epoch nanoseconds, UTC.
#include <cstdint>

namespace faultline {

using EpochNs = std::int64_t;

}  // namespace faultline
