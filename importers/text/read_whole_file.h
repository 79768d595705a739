#pragma once
// Small documents (sacct --json, Flight Recorder JSON, topology) are parsed whole: this reads
// one, decompressing gzip, with a size limit so a mislabelled huge file fails clearly.
#include <string>

namespace faultline {

std::string readWholeFile(const std::string& path, std::size_t limitBytes = std::size_t{1} << 30);

}  // namespace faultline
