#include "importers/text/json_parse.h"

#include "model/error.h"

namespace faultline {

namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parseJson(std::string_view text, const std::string& path, std::string_view expected, std::uint64_t offset) {
    const std::string want = " (expected " + std::string(expected) + ")";
    try {
        return nlohmann::json::parse(text.begin(), text.end(), [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth > kMaxJsonDepth) throw TooDeep{};
            return true;
        });
    } catch (const TooDeep&) {
        throw Error(path + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels" + want);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte counts from 1; what the library says past its "parse error at ...: " prefix.
        std::string what = e.what();
        if (const std::size_t colon = what.find(": ", what.find("parse error")); colon != std::string::npos) what.erase(0, colon + 2);
        throw Error(path + ": byte " + std::to_string(offset + (e.byte > 0 ? e.byte - 1 : 0)) + ": not valid JSON: " + what + want);
    } catch (const nlohmann::json::out_of_range& e) {
        // 406: a number beyond double, such as 1e999; the library does not say where.
        std::string what = e.what();
        if (const std::size_t bracket = what.find("] "); bracket != std::string::npos) what.erase(0, bracket + 2);
        throw Error(path + ": bytes " + std::to_string(offset) + "-" + std::to_string(offset + text.size()) + ": " + what + want);
    } catch (const nlohmann::json::exception&) {
        throw Error(path + ": byte " + std::to_string(offset) + ": not valid JSON" + want);
    }
}

}  // namespace faultline
