// Slurm `sacct --json`. The schema moved between Slurm versions; what we read:
//   21.08 / 22.05: time.start, time.end are integers; state.current is a string.
//   23.02: the same, but time.limit became {set, infinite, number}.
//   23.11+: times and states may be {set, infinite, number} objects and state.current a list.
#include "importers/slurm/readers.h"
#include "importers/text/hostlist.h"
#include "importers/text/json_event_stream.h"
#include "importers/text/json_parse.h"
#include "importers/slurm/slurm_job.h"
#include "importers/text/text_parse.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace faultline {

namespace {

// An integer field in either spelling; 0 when unset.
std::int64_t slurmNumber(const nlohmann::json& v) {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number()) {
        const double d = v.get<double>();
        return std::abs(d) < 9.2e18 ? static_cast<std::int64_t>(d) : -1;  // -1: out of any range, refused by the caller
    }
    if (v.is_object()) {
        if (v.value("set", true) == false || v.value("infinite", false)) return 0;
        if (auto it = v.find("number"); it != v.end() && it->is_number()) return slurmNumber(*it);
    }
    return 0;
}

std::string slurmState(const nlohmann::json& state) {
    const nlohmann::json* current = &state;
    if (state.is_object()) {
        auto it = state.find("current");
        if (it == state.end()) return "";
        current = &*it;
    }
    if (current->is_string()) return current->get<std::string>();
    if (current->is_array() && !current->empty() && current->front().is_string()) return current->front().get<std::string>();
    return "";
}

// One job record; a record that is not a job is skipped with the reason.
void addJob(const nlohmann::json& j, const std::string& where, ImportContext& ctx) {
    if (!j.is_object() || !j.contains("job_id")) {
        ctx.report.skip(where + ": expected a job object with a job_id");
        return;
    }
    ImportedJob job;
    const nlohmann::json& id = j["job_id"];
    job.id = id.is_string() ? id.get<std::string>() : std::to_string(slurmNumber(id));
    if (auto it = j.find("name"); it != j.end() && it->is_string()) job.name = it->get<std::string>();
    job.state = slurmState(j.value("state", nlohmann::json()));
    if (job.state.empty()) {
        ctx.report.skip(where + ": expected state.current");
        return;
    }
    if (auto t = j.find("time"); t != j.end() && t->is_object()) {
        try {
            job.start = epochFromSeconds(slurmNumber(t->value("start", nlohmann::json())));
            job.end = epochFromSeconds(slurmNumber(t->value("end", nlohmann::json())));
        } catch (const TimeOutOfRange& e) {
            throw Error(where + ": time: " + e.what());
        }
    }
    if (auto n = j.find("nodes"); n != j.end() && n->is_string()) {
        try {
            job.nodes = expandHostList(n->get<std::string>());
        } catch (const Error& e) {
            ctx.report.skip(where + ": nodes: " + e.what());
            return;
        }
    }
    readSacctJsonDetails(j, job);
    addSlurmJob(std::move(job), ctx);
}

}  // namespace

void importSacctJson(const std::string& path, ImportContext& ctx) {
    // Streamed job by job: a year of a big cluster's sacct --json is gigabytes.
    JsonEventStream stream(path, {}, {"jobs", "job", "sacct --json output"});
    std::size_t index = 0;
    stream.run(
        [&](const char* data, std::size_t size, std::size_t) {
            const std::string where = path + ": jobs[" + std::to_string(index++) + "]";
            const nlohmann::json j = parseJson({data, size}, path, "sacct --json output", stream.eventOffset());
            addJob(j, where, ctx);
        },
        [&](double progress) { ctx.tick(progress); });
}

}  // namespace faultline
