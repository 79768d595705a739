#pragma once
// JSON as the CLI prints it. Names and details come from the files a cluster wrote, which may
// hold invalid UTF-8 (a kernel log line cut mid-character): such bytes become U+FFFD, never
// an exception, so `--json` works on every run that the text output works on.
#include <nlohmann/json.hpp>

#include <string>

namespace faultline {

inline std::string jsonText(const nlohmann::json& j, int indent = 2) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace faultline
