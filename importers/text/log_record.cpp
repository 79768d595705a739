#include "importers/text/log_record.h"

#include "importers/text/json_limits.h"
#include "importers/text/text_parse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace faultline {

namespace {

struct RecordTooDeep {};

// A field's name without its sigil and case: "@message", "_HOSTNAME", "Message" -> "message".
std::string keyOf(const std::string& name) {
    std::string k;
    for (char c : name)
        if (c != '@' && c != '_') k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return k;
}

// A count since 1970 in seconds, milliseconds, microseconds or nanoseconds, told by its size
// (a training log is dated after 2001, when seconds reached 10 digits).
std::optional<EpochNs> epochFromCount(double n) {
    if (!(n > 0)) return std::nullopt;
    double seconds = n;
    while (seconds >= 1e11) seconds /= 1000;
    if (seconds < 1e9) return std::nullopt;
    const auto whole = static_cast<std::int64_t>(seconds);
    return epochFromSeconds(whole, static_cast<std::int64_t>((seconds - static_cast<double>(whole)) * 1e9));
}

std::optional<EpochNs> timeOf(const nlohmann::json& v) {
    try {
        if (v.is_number()) return epochFromCount(v.get<double>());
        if (!v.is_string()) return std::nullopt;
        const std::string& s = v.get_ref<const std::string&>();
        if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return isDigit(c) || c == '.'; }))
            if (auto n = parseDouble(s)) return epochFromCount(*n);
        std::size_t used = 0;
        if (auto t = parseIsoTime(s, &used); t && trim(std::string_view(s).substr(used)).empty()) return t;
    } catch (const TimeOutOfRange&) {
    }
    return std::nullopt;
}

}  // namespace

std::optional<LogRecord> parseLogRecord(std::string_view line) {
    const std::string_view t = trim(line);
    if (t.size() < 2 || t.front() != '{' || t.back() != '}' || t.find('"') == std::string_view::npos) return std::nullopt;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(t.begin(), t.end(), [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth > kMaxJsonDepth) throw RecordTooDeep{};
            return true;
        });
    } catch (const RecordTooDeep&) {
        return std::nullopt;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
    if (!j.is_object()) return std::nullopt;
    // Each field by its meaning; where a record has several of one (a collector's "@message"
    // around the runtime's "log"), the first named here wins.
    static constexpr std::string_view kMessages[] = {"message", "log", "msg", "textpayload", "line", "text"};
    static constexpr std::string_view kTimes[] = {"timestamp", "time", "realtimetimestamp", "sourcerealtimetimestamp", "ts", "datetime", "date", "t"};
    static constexpr std::string_view kHosts[] = {"hostname", "host", "nodename", "node"};
    LogRecord r;
    std::size_t message = std::size(kMessages), time = std::size(kTimes), host = std::size(kHosts);
    std::string messageKey;
    for (const auto& [name, value] : j.items()) {
        const std::string k = keyOf(name);
        for (std::size_t i = 0; i < message && i < std::size(kMessages); ++i)
            if (k == kMessages[i] && value.is_string()) {
                message = i;
                messageKey = k;
                r.message = value.get<std::string>();
            }
        for (std::size_t i = 0; i < time && i < std::size(kTimes); ++i)
            if (k == kTimes[i])
                if (auto at = timeOf(value)) {
                    time = i;
                    r.time = at;
                }
        for (std::size_t i = 0; i < host && i < std::size(kHosts); ++i) {
            // ECS and Beats: {"host": {"name": "n7", ...}}.
            const nlohmann::json* h = &value;
            if (h->is_object() && h->contains("name")) h = &(*h)["name"];
            if (k == kHosts[i] && h->is_string() && !h->get_ref<const std::string&>().empty()) {
                host = i;
                r.host = h->get<std::string>();
            }
        }
    }
    if (message == std::size(kMessages)) return std::nullopt;
    // Docker's json-file keeps a line's newline in its last part only.
    if (messageKey == "log" && j.contains("stream")) r.partial = r.message.empty() || r.message.back() != '\n';
    while (!r.message.empty() && (r.message.back() == '\n' || r.message.back() == '\r')) r.message.pop_back();
    return r;
}

}  // namespace faultline
