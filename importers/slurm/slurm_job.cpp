#include "importers/slurm/slurm_job.h"

#include "importers/events/import_report.h"

#include "importers/text/text_parse.h"

#include <nlohmann/json.hpp>

#include <array>

namespace faultline {

bool isInterruptingJobState(std::string_view state) {
    static constexpr std::array<std::string_view, 9> kStates = {"FAILED",    "NODE_FAIL",     "TIMEOUT",
                                                                "CANCELLED", "REQUEUED",      "OUT_OF_MEMORY",
                                                                "BOOT_FAIL", "PREEMPTED",     "DEADLINE"};
    for (std::string_view s : kStates)
        if (state == s) return true;
    return false;
}

std::int32_t gpusInTres(std::string_view tres) {
    std::int32_t gpus = 0;
    while (!tres.empty()) {
        const std::size_t comma = tres.find(',');
        const std::string_view item = tres.substr(0, comma);
        tres = comma == std::string_view::npos ? std::string_view() : tres.substr(comma + 1);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view key = item.substr(0, eq);
        // "gres/gpu" is the total; "gres/gpu:h100" repeats it by type, so the total wins.
        if (key == "gres/gpu" || (gpus == 0 && startsWith(key, "gres/gpu:")))
            if (const auto n = parseInt(item.substr(eq + 1))) gpus = static_cast<std::int32_t>(*n);
    }
    return gpus;
}

namespace {

// An integer in either spelling (23.02+ wrap numbers in {set, infinite, number}); 0 when unset.
std::int64_t jsonNumber(const nlohmann::json& v) {
    if (v.is_number()) return v.get<std::int64_t>();
    if (v.is_object() && v.value("set", true) && !v.value("infinite", false))
        if (auto it = v.find("number"); it != v.end() && it->is_number()) return it->get<std::int64_t>();
    return 0;
}

}  // namespace

void readSacctJsonDetails(const nlohmann::json& j, ImportedJob& out) {
    if (auto t = j.find("time"); t != j.end() && t->is_object())
        if (auto s = t->find("submission"); s != t->end()) out.submit = jsonNumber(*s) * 1'000'000'000;
    if (auto e = j.find("exit_code"); e != j.end() && e->is_object()) {
        std::int64_t signal = 0;
        if (auto s = e->find("signal"); s != e->end() && s->is_object())
            if (auto id = s->find("signal_id"); id != s->end()) signal = jsonNumber(*id);
        out.exitCode = std::to_string(jsonNumber(e->value("return_code", nlohmann::json()))) + ":" + std::to_string(signal);
    }
    if (auto r = j.find("restart_cnt"); r != j.end()) out.restarts = static_cast<std::int32_t>(jsonNumber(*r));
    if (auto st = j.find("state"); st != j.end() && st->is_object())
        if (auto r = st->find("reason"); r != st->end() && r->is_string() && *r != "None") out.reason = r->get<std::string>();
    if (auto s = j.find("submit_line"); s != j.end() && s->is_string()) out.dependsOn = dependenciesInSubmitLine(s->get<std::string>());
    if (auto tres = j.find("tres"); tres != j.end() && tres->is_object())
        if (auto a = tres->find("allocated"); a != tres->end() && a->is_array())
            for (const nlohmann::json& t : *a)
                if (t.is_object() && t.value("type", "") == "gres" && t.value("name", nlohmann::json()).is_string() && t["name"] == "gpu")
                    out.gpus = static_cast<std::int32_t>(jsonNumber(t.value("count", nlohmann::json())));
}

std::vector<std::string> dependenciesInSubmitLine(std::string_view line) {
    std::vector<std::string> ids;
    // The option's value: the word after "--dependency=" / "--dependency " / "-d " / "-d".
    std::string_view value;
    for (std::size_t at = 0; at < line.size(); ++at) {
        if (at > 0 && line[at - 1] != ' ') continue;
        std::string_view rest = line.substr(at);
        std::size_t skip = 0;
        if (startsWith(rest, "--dependency=")) skip = 13;
        else if (startsWith(rest, "--dependency ")) skip = 13;
        else if (startsWith(rest, "-d ")) skip = 3;
        else if (startsWith(rest, "-d") && rest.size() > 2 && rest[2] != ' ' && rest[2] != '-') skip = 2;
        else continue;
        rest = rest.substr(skip);
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        value = rest.substr(0, rest.find(' '));
        break;
    }
    // "afterok:12:13,afterany:14+5?singleton": each condition is TYPE:ID[+MINUTES][:ID...].
    std::vector<std::string_view> conditions;
    splitBy(value, ",", conditions);
    for (std::string_view all : conditions) {
        std::vector<std::string_view> either;
        splitBy(all, "?", either);
        for (std::string_view condition : either) {
            std::vector<std::string_view> parts;
            splitBy(condition, ":", parts);
            for (std::size_t i = 1; i < parts.size(); ++i) {
                std::string_view id = parts[i].substr(0, parts[i].find('+'));
                id = id.substr(0, id.find('('));  // squeue's "afterok:12(unfulfilled)"
                if (!id.empty() && id.front() >= '0' && id.front() <= '9') ids.emplace_back(id);
            }
        }
    }
    return ids;
}

void addSlurmJob(ImportedJob job, ImportContext& ctx) {
    ctx.report.count("jobs");
    if (job.start > 0) ctx.report.seen(job.start);
    if (job.end > 0) ctx.report.seen(job.end);
    if (isInterruptingJobState(job.state)) {
        ImportedFailure f;
        // The job stopped at its end time; a job still listed without one stopped when it started.
        f.time = job.end > 0 ? job.end : job.start;
        // sacct says how a job ended, not what broke: the taxonomy maps the state as far as it goes.
        f.cause = rootCauseForSlurmState(job.state).value_or(RootCause::Unknown);
        f.hosts = job.nodes;
        f.job = job.id;
        std::string nodes;
        for (std::size_t i = 0; i < job.nodes.size() && i < 8; ++i) nodes += (i ? "," : "") + job.nodes[i];
        if (job.nodes.size() > 8) nodes += ",... (" + std::to_string(job.nodes.size()) + " nodes)";
        f.detail = "Slurm job " + job.id + (job.name.empty() ? "" : " (" + job.name + ")") + " " + job.state +
                   (nodes.empty() ? "" : " on " + nodes) + " at " + formatEpochNs(f.time);
        if (f.time > 0) {
            ctx.events.failures.push_back(std::move(f));
            ctx.report.count("failures");
        }
        ctx.report.count("jobs " + job.state);
    }
    ctx.events.jobs.push_back(std::move(job));
}

}  // namespace faultline
