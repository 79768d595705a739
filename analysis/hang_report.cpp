// How a hang analysis reads in the CLI and in exports.
#include "hang_analysis.h"

#include "incidents.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline {

namespace {

std::string joinRanks(const std::vector<std::int32_t>& ranks) {
    std::string out;
    for (std::int32_t r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
    return out.empty() ? "-" : out;
}

std::string ranksText(const std::vector<std::int32_t>& ranks) {
    return (ranks.size() == 1 ? "rank " : "ranks ") + rankRanges(ranks);
}

}  // namespace

std::string hangOriginText(const HangReport& hang, const HangOrigin& origin) {
    const HangFinding& f = hang.findings[origin.finding];
    std::string op = f.op;
    if (op.rfind("nccl:", 0) == 0) op.erase(0, 5);
    std::string text = ranksText(origin.culprits) + " never joined " + op + " #" +
                       std::to_string(f.seq) + " in process group " + f.processGroup;
    if (!f.processGroupDesc.empty()) text += " (" + f.processGroupDesc + ")";
    if (!origin.waiting.empty()) text += "; " + ranksText(origin.waiting) + (origin.waiting.size() == 1 ? " waits" : " wait") + " in it";
    return text;
}

nlohmann::json hangToJson(const HangReport& report) {
    nlohmann::json findings = nlohmann::json::array();
    for (const HangFinding& f : report.findings)
        findings.push_back({{"process_group", f.processGroup}, {"process_group_desc", f.processGroupDesc}, {"group_ranks", f.groupRanks},
                            {"seq", f.seq}, {"op", f.op}, {"size", f.size}, {"dtype", f.dtype}, {"enqueued_ns", f.enqueuedNs},
                            {"missing_ranks", f.missing}, {"stuck_ranks", f.stuck}, {"mismatches", f.mismatches}});
    nlohmann::json origins = nlohmann::json::array();
    for (const HangOrigin& o : report.origins) {
        const HangFinding& f = report.findings[o.finding];
        origins.push_back({{"culprit_ranks", o.culprits}, {"waiting_ranks", o.waiting}, {"finding", o.finding},
                           {"process_group", f.processGroup}, {"process_group_desc", f.processGroupDesc}, {"seq", f.seq}, {"op", f.op}});
    }
    return {{"dumps", report.dumps}, {"ranks_without_dump", report.ranksWithoutDump}, {"culprit_ranks", report.culprits},
            {"origins", origins}, {"findings", findings}};
}

std::string hangToText(const HangReport& report) {
    std::string out = "Flight Recorder dumps of " + std::to_string(report.dumps) + " ranks";
    if (!report.ranksWithoutDump.empty()) out += "; no dump from ranks " + joinRanks(report.ranksWithoutDump);
    out += "\n";
    if (report.findings.empty()) return out + "No hang: every process group's ranks enqueued and completed the same collectives.\n";
    out += "Culprit ranks: " + joinRanks(report.culprits) + "\n";
    for (std::size_t i = 0; i < report.origins.size(); ++i) {
        const HangOrigin& origin = report.origins[i];
        const HangFinding& f = report.findings[origin.finding];
        out += (report.origins.size() > 1 ? "Hang " + std::to_string(i + 1) + " of " + std::to_string(report.origins.size()) + " began"
                                          : std::string("The hang began")) +
               " in process group " + f.processGroup + " (" + f.processGroupDesc + "), collective #" + std::to_string(f.seq) + " " + f.op +
               " " + f.size + " " + f.dtype + "\n";
        if (!f.missing.empty()) out += "  never joined it: ranks " + joinRanks(f.missing) + "\n";
        if (!f.stuck.empty()) out += "  stuck in it: ranks " + joinRanks(f.stuck) + "\n";
        for (const std::string& m : f.mismatches) out += "  mismatch: " + m + "\n";
    }

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
