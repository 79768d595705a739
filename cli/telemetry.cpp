#include "cli/args.h"
#include "cli/commands.h"

#include "importers/text/text_parse.h"
#include "model/format.h"
#include "model/json_text.h"
#include "model/metric_at_instant.h"
#include "model/metric_text.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace faultline::cli {

namespace {

// "36h" from the run's start, or a UTC time ("2025-01-01T00:00:10Z") as Grafana shows it.
Nanos instantOf(const std::string& text, const Run& run) {
    if (const auto d = parseDuration(text)) return *d;
    if (const auto epoch = parseIsoTime(text); epoch) return *epoch - run.info.startEpochNs;
    throw UsageError("--at takes a time since the run's start (36h) or a UTC time (2025-01-01T00:00:10Z), not '" + text + "'");
}

// "node01-gpu3" as the app names it, or "node01:3".
std::int32_t gpuOf(const std::string& text, const Topology& t) {
    const auto colon = text.rfind(':');
    const auto dash = text.rfind("-gpu");
    const std::size_t cut = colon != std::string::npos ? colon : dash;
    const std::size_t skip = colon != std::string::npos ? 1 : 4;
    if (cut != std::string::npos) {
        const std::string index = text.substr(cut + skip);
        const auto host = t.findHost(text.substr(0, cut));
        if (host && !index.empty() && std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) && index.size() < 4) {
            const Host& h = t.hosts[static_cast<std::size_t>(*host)];
            if (std::stoi(index) < h.gpuCount) return h.firstGpu + std::stoi(index);
        }
    }
    throw Error("no GPU '" + text + "' in this run (name one as HOST-gpuN or HOST:N)");
}


}  // namespace

const CommandSpec& telemetrySpec() {
    static const CommandSpec spec{
        "telemetry",
        "RUN.faultline [--at TIME] [--gpu GPU] [--metric NAME] [--json]",
        "each GPU's telemetry readings at one instant, as View > Colour By colours the 3D view",
        "Prints every GPU's reading of every metric (or the ones named) at an instant of the run: the newest sample at or "
        "before it within 5 minutes (Prometheus's default lookback), a summary bucket's mean where the run kept no raw "
        "samples; 'no data' where there is none. The same numbers the app's 3D view and inspector show while paused there.",
        {{"--at", "", "TIME", "the instant: time since the run's start (36h, 90m) or a UTC time (2025-01-01T00:00:10Z); default the start"},
         {"--gpu", "", "GPU", "one GPU, as HOST-gpuN or HOST:N"},
         {"--metric", "", "NAME", "one metric, by DCGM's name (DCGM_FI_DEV_POWER_USAGE) or the app's (Power)"},
         {"--json", "", "", "print the readings as JSON"}}};
    return spec;
}

int telemetryCommand(const CommandArgs& argv) {
    const Args args(argv, telemetrySpec());
    if (args.positional().size() != 1) throw UsageError("telemetry takes one run file");
    const Run run = readRunFile(args.positional().front());
    const Nanos at = args.value("--at") ? instantOf(*args.value("--at"), run) : 0;
    std::vector<std::int32_t> gpus;
    if (const auto named = args.value("--gpu")) gpus = {gpuOf(*named, run.topology)};
    else
        for (std::size_t g = 0; g < run.topology.gpus.size(); ++g) gpus.push_back(static_cast<std::int32_t>(g));
    std::vector<std::int32_t> metrics;
    if (const auto named = args.value("--metric")) metrics = {metricNamed(run.telemetry, *named)};
    else
        for (std::size_t m = 0; m < run.telemetry.metrics.size(); ++m) metrics.push_back(static_cast<std::int32_t>(m));
    const std::string when = formatWallTime(run.info.startEpochNs, at);
    nlohmann::json rows = nlohmann::json::array();
    std::string text = "At " + when + " (" + formatDuration(at) + " into the run):\n";
    if (metrics.empty()) text += "  the run has no telemetry\n";
    for (std::int32_t m : metrics) {
        const std::string& name = run.telemetry.metrics[static_cast<std::size_t>(m)];
        const MetricAtInstant reader(run, m);
        const std::string unit(metricInfo(name).unit);
        for (std::int32_t g : gpus) {
            const float v = reader.valueAt(g, at);
            const std::string gpu = run.topology.gpuName(g);
            rows.push_back({{"gpu", gpu}, {"metric", name}, {"unit", unit}, {"value", std::isnan(v) ? nlohmann::json() : nlohmann::json(v)}});
            text += "  " + gpu + "  " + metricTitle(name) + "  " + formatMetricValue(v, unit) + "\n";
        }
    }
    if (args.flag("--json")) text = jsonText(nlohmann::json{{"time", when}, {"at_s", static_cast<double>(at) / kSecond}, {"readings", rows}});
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
