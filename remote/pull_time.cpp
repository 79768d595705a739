#include "remote/pull_time.h"

#include "importers/text/text_parse.h"
#include "model/format.h"

#include <charconv>

namespace faultline {

std::optional<EpochNs> parsePullTime(std::string_view text, EpochNs now) {
    if (text == "now") return now;
    if (text.substr(0, 4) == "now-") {
        const auto ago = parseDuration(text.substr(4));
        if (!ago || *ago <= 0 || *ago > now) return std::nullopt;
        return now - *ago;
    }
    std::int64_t seconds = 0;
    if (const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds); ec == std::errc() && end == text.data() + text.size()) {
        if (seconds < 0 || seconds > 9'000'000'000LL) return std::nullopt;
        return seconds * 1'000'000'000LL;
    }
    std::size_t consumed = 0;
    const auto t = parseIsoTime(text, &consumed);
    if (!t || consumed != text.size()) return std::nullopt;
    return t;
}

}  // namespace faultline
