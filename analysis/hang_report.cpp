// How a hang analysis reads in the CLI and in exports.
#include "hang_analysis.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline {

namespace {

std::string joinRanks(const std::vector<std::int32_t>& ranks) {
    std::string out;
    for (std::int32_t r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
    return out.empty() ? "-" : out;
}

}  // namespace

nlohmann::json hangToJson(const HangReport& report) {
    nlohmann::json findings = nlohmann::json::array();
    for (const HangFinding& f : report.findings)
        findings.push_back({{"process_group", f.processGroup}, {"process_group_desc", f.processGroupDesc}, {"group_ranks", f.groupRanks},
                            {"seq", f.seq}, {"op", f.op}, {"size", f.size}, {"dtype", f.dtype}, {"enqueued_ns", f.enqueuedNs},
                            {"missing_ranks", f.missing}, {"stuck_ranks", f.stuck}, {"mismatches", f.mismatches}});
    return {{"dumps", report.dumps}, {"ranks_without_dump", report.ranksWithoutDump}, {"culprit_ranks", report.culprits},
            {"findings", findings}};
}

std::string hangToText(const HangReport& report) {
    std::string out = "Flight Recorder dumps of " + std::to_string(report.dumps) + " ranks";
    if (!report.ranksWithoutDump.empty()) out += "; no dump from ranks " + joinRanks(report.ranksWithoutDump);
    out += "\n";
    if (report.findings.empty()) return out + "No hang: every process group's ranks enqueued and completed the same collectives.\n";
    const HangFinding& first = report.findings.front();
    out += "Culprit ranks: " + joinRanks(report.culprits) + "\n";
    out += "The hang began in process group " + first.processGroup + " (" + first.processGroupDesc + "), collective #" +
           std::to_string(first.seq) + " " + first.op + " " + first.size + " " + first.dtype + "\n";
    if (!first.missing.empty()) out += "  never joined it: ranks " + joinRanks(first.missing) + "\n";
    if (!first.stuck.empty()) out += "  stuck in it: ranks " + joinRanks(first.stuck) + "\n";
    for (const std::string& m : first.mismatches) out += "  mismatch: " + m + "\n";

    char buf[512];
    out += "\n";
    std::snprintf(buf, sizeof buf, "%-6s | %-40s | %-22s | %-14s | %-9s | %-14s | %s\n", "PGID", "Process Group Desc", "Op Type", "Size", "Dtype",
                  "Missing Ranks", "Stuck Ranks");
    out += buf;
    for (const HangFinding& f : report.findings) {
        std::snprintf(buf, sizeof buf, "%-6s | %-40s | %-22s | %-14s | %-9s | %-14s | %s\n", f.processGroup.c_str(), f.processGroupDesc.c_str(),
                      f.op.c_str(), f.size.c_str(), f.dtype.c_str(), joinRanks(f.missing).c_str(), joinRanks(f.stuck).c_str());
        out += buf;
    }
    return out;
}

}  // namespace faultline
