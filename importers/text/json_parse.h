#pragma once
// nlohmann::json::parse for what a file holds. Nesting deeper than kMaxJsonDepth is refused
// (no importer's data nests that deep, and a DOM of millions of levels costs gigabytes), and
// every failure, the library's own included, becomes an Error naming the file and the byte.
#include "importers/text/json_limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace faultline {

// `text` starts at byte `offset` of `path`; `expected` says what the file should be
// ("sacct --json output"), for the message.
nlohmann::json parseJson(std::string_view text, const std::string& path, std::string_view expected, std::uint64_t offset = 0);

}  // namespace faultline
