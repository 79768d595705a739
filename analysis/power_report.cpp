// The cluster's power as text, JSON and CSV: `faultline-cli power` prints these.
#include "cluster_power.h"

#include "model/format.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace faultline {

namespace {

// A cluster draws megawatts; one host's capture draws kilowatts, said as such.
struct PowerUnit {
    double scale;
    const char* power;
    const char* energy;
};
PowerUnit unitFor(const ClusterPower& p) { return p.peakMegawatts >= 1 ? PowerUnit{1, "MW", "MWh"} : PowerUnit{1000, "kW", "kWh"}; }

std::string amount(double megawatts, const PowerUnit& u) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f %s", megawatts * u.scale, u.power);
    return b;
}

}  // namespace

std::string clusterPowerToText(const ClusterPower& p, const Run& run) {
    const PowerUnit u = unitFor(p);
    std::string out = "Cluster power of " + run.info.name + "\n";
    out += "  source:  " + p.source + "\n";
    out += "  peak " + amount(p.peakMegawatts, u) + ", mean " + amount(p.meanMegawatts, u);
    char energy[96];
    std::snprintf(energy, sizeof energy, ", energy %.1f %s over %s\n", p.energyMegawattHours * u.scale, u.energy, formatDuration(run.info.duration).c_str());
    out += energy;
    if (p.largestSwings.empty()) {
        out += "  no swings: the draw is flat over the run\n";
        return out;
    }
    out += "\nLargest swings\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-26s %12s %12s %12s  %s\n", "when (UTC)", "from", "to", (std::string(u.power) + "/s").c_str(), "at");
    out += line;
    for (const PowerSwing& s : p.largestSwings) {
        std::snprintf(line, sizeof line, "  %-26s %12s %12s %+12.3f  %s\n", formatWallTime(run.info.startEpochNs, s.time).c_str(), amount(s.fromMegawatts, u).c_str(),
                      amount(s.toMegawatts, u).c_str(), s.megawattsPerSecond * u.scale, s.cause.empty() ? "-" : s.cause.c_str());
        out += line;
    }
    return out;
}

nlohmann::json clusterPowerToJson(const ClusterPower& p, const Run& run) {
    nlohmann::json j;
    j["run"] = run.info.name;
    j["source"] = p.source;
    j["from_telemetry"] = p.fromTelemetry;
    j["gpus"] = p.gpus;
    j["peak_mw"] = p.peakMegawatts;
    j["mean_mw"] = p.meanMegawatts;
    j["energy_mwh"] = p.energyMegawattHours;
    nlohmann::json curve = nlohmann::json::array();
    for (const PowerPoint& pt : p.curve) curve.push_back({{"time_s", toSeconds(pt.time)}, {"mw", pt.megawatts}});
    j["curve"] = std::move(curve);
    nlohmann::json swings = nlohmann::json::array();
    for (const PowerSwing& s : p.largestSwings)
        swings.push_back({{"time_s", toSeconds(s.time)}, {"utc", formatWallTime(run.info.startEpochNs, s.time)}, {"from_mw", s.fromMegawatts},
                          {"to_mw", s.toMegawatts}, {"mw_per_s", s.megawattsPerSecond}, {"cause", s.cause}});
    j["largest_swings"] = std::move(swings);
    nlohmann::json marks = nlohmann::json::array();
    for (const PowerMark& m : p.marks) marks.push_back({{"time_s", toSeconds(m.time)}, {"kind", m.kind}, {"label", m.label}});
    j["marks"] = std::move(marks);
    return j;
}

std::string clusterPowerToCsv(const ClusterPower& p, const Run& run) {
    std::string out = "time_s,utc,megawatts\n";
    char line[128];
    for (const PowerPoint& pt : p.curve) {
        std::snprintf(line, sizeof line, "%.3f,%s,%.6f\n", toSeconds(pt.time), formatWallTime(run.info.startEpochNs, pt.time).c_str(), pt.megawatts);
        out += line;
    }
    return out;
}

}  // namespace faultline
