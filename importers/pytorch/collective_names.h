#pragma once
// What the collective-trace importers (Kineto, Flight Recorder) share: element sizes of
// PyTorch / NCCL type names, and rank lists written as text ("[0, 1, 2]").
#include <cstdint>
#include <string_view>
#include <vector>

namespace faultline {

// Bytes per element of "Float", "BFloat16", "float", "int8_t", ...; 0 when unknown.
std::int64_t dtypeBytes(std::string_view dtype);

// "[0, 1, 2]" -> {0, 1, 2}; empty when the text holds no list of ranks.
std::vector<std::int32_t> parseRankList(std::string_view text);

}  // namespace faultline
