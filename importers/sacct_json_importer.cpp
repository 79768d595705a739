// Slurm `sacct --json`. The schema moved between Slurm versions; what we read:
//   21.08 / 22.05: time.start, time.end are integers; state.current is a string.
//   23.02: the same, but time.limit became {set, infinite, number}.
//   23.11+: times and states may be {set, infinite, number} objects and state.current a list.
#include "formats.h"
#include "hostlist.h"
#include "read_whole_file.h"
#include "slurm_job.h"

#include <nlohmann/json.hpp>

namespace faultline {

namespace {

// An integer field in either spelling; 0 when unset.
std::int64_t slurmNumber(const nlohmann::json& v) {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number()) return static_cast<std::int64_t>(v.get<double>());
    if (v.is_object()) {
        if (v.value("set", true) == false || v.value("infinite", false)) return 0;
        if (auto it = v.find("number"); it != v.end() && it->is_number()) return it->get<std::int64_t>();
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

}  // namespace

void importSacctJson(const std::string& path, ImportContext& ctx) {
    const std::string text = readWholeFile(path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(path + ": byte " + std::to_string(e.byte) + ": not valid JSON (expected sacct --json output)");
    }
    const auto jobs = doc.find("jobs");
    if (!doc.is_object() || jobs == doc.end() || !jobs->is_array())
        throw Error(path + ": expected an object with a \"jobs\" array (sacct --json output)");
    std::size_t index = 0;
    for (const nlohmann::json& j : *jobs) {
        const std::string where = path + ": jobs[" + std::to_string(index++) + "]";
        if (!j.is_object() || !j.contains("job_id")) {
            ctx.report.skip(where + ": expected a job object with a job_id");
            continue;
        }
        ImportedJob job;
        const nlohmann::json& id = j["job_id"];
        job.id = id.is_string() ? id.get<std::string>() : std::to_string(slurmNumber(id));
        if (auto it = j.find("name"); it != j.end() && it->is_string()) job.name = it->get<std::string>();
        job.state = slurmState(j.value("state", nlohmann::json()));
        if (job.state.empty()) {
            ctx.report.skip(where + ": expected state.current");
            continue;
        }
        if (auto t = j.find("time"); t != j.end() && t->is_object()) {
            job.start = slurmNumber(t->value("start", nlohmann::json())) * 1'000'000'000;
            job.end = slurmNumber(t->value("end", nlohmann::json())) * 1'000'000'000;
        }
        if (auto n = j.find("nodes"); n != j.end() && n->is_string()) {
            try {
                job.nodes = expandHostList(n->get<std::string>());
            } catch (const Error& e) {
                ctx.report.skip(where + ": nodes: " + e.what());
                continue;
            }
        }
        readSacctJsonDetails(j, job);
        addSlurmJob(std::move(job), ctx);
    }
}

}  // namespace faultline
