#include "pulled_sources.h"

#include "error.h"
#include "sqlite_db.h"

#include <nlohmann/json.hpp>

namespace faultline {

std::string pulledSourcesToJson(const std::vector<PulledSource>& pulls) {
    nlohmann::json out = nlohmann::json::array();
    for (const PulledSource& p : pulls)
        out.push_back({{"kind", p.kind},
                       {"url", p.url},
                       {"queries", p.queries},
                       {"from_ns", p.fromEpochNs},
                       {"to_ns", p.toEpochNs},
                       {"step_ns", p.stepNs},
                       {"pulled_at_ns", p.pulledAtEpochNs}});
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<PulledSource> readPulledSources(const std::string& path) {
    // readRunFile has checked what the file is; this reads one meta key of it.
    SqliteDb db(path, SqliteDb::Mode::ReadOnly);
    SqliteStatement s(db, "SELECT value FROM meta WHERE key = 'pulls'");
    if (!s.next()) return {};
    try {
        return pulledSourcesFromJson(s.text(0));
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

std::vector<PulledSource> pulledSourcesFromJson(const std::string& text) {
    std::vector<PulledSource> out;
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        if (!j.is_array()) throw Error("not an array");
        for (const nlohmann::json& p : j) {
            PulledSource s;
            s.kind = p.at("kind").get<std::string>();
            s.url = p.at("url").get<std::string>();
            s.queries = p.at("queries").get<std::vector<std::string>>();
            s.fromEpochNs = p.at("from_ns").get<std::int64_t>();
            s.toEpochNs = p.at("to_ns").get<std::int64_t>();
            s.stepNs = p.at("step_ns").get<std::int64_t>();
            s.pulledAtEpochNs = p.at("pulled_at_ns").get<std::int64_t>();
            out.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        throw Error(std::string("meta \"pulls\": not a list of pulled sources (") + e.what() + ")");
    }
    return out;
}

}  // namespace faultline
