#include "exports/csv_export.h"

#include "model/checked_write.h"
#include "model/error.h"
#include "model/output_guard.h"
#include "model/partial_file.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace faultline {

namespace {

std::string seconds(Nanos t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", toSeconds(t));
    return buf;
}

std::string ratio(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", r);
    return buf;
}

// Rows end in CRLF, as RFC 4180 asks and spreadsheet importers expect.
std::string row(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csvField(fields[i]);
    return out + "\r\n";
}

void writeText(const std::string& path, const std::string& text) {
    writeThroughPartial(path, [&](const std::string& partial) {
        writeFileBytes(partial, text);  // every byte counted, the cause named
    });
}

std::string optionalStep(const std::optional<std::int64_t>& step) { return step ? std::to_string(*step) : ""; }

// A number as a spreadsheet reads one ("-12", "+0.5", "1e-3"): left as it is.
bool isPlainNumber(const std::string& text) {
    if (text.empty()) return false;
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && text.find_first_of("xXnN") == std::string::npos;  // no hex, inf or nan
}

}  // namespace

std::string neutraliseFormula(const std::string& text) {
    // OWASP's advice on CSV injection: a cell a spreadsheet would run as a formula starts
    // with a quote, which makes it text. A reviewer's note "=HYPERLINK(...)" stays readable.
    if (text.empty() || std::string_view("=+-@\t\r").find(text[0]) == std::string_view::npos) return text;
    if (isPlainNumber(text)) return text;
    return "'" + text;
}

std::string csvField(const std::string& raw) {
    const std::string text = neutraliseFormula(raw);
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string isoUtc(std::int64_t startEpochNs, Nanos t) {
    const std::int64_t ns = startEpochNs + t;
    std::int64_t secs = ns / kSecond, rem = ns % kSecond;
    if (rem < 0) rem += kSecond, --secs;
    const std::time_t tt = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(rem / kMillisecond));
    return buf;
}

namespace {

std::string gpuHoursCell(double h) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", h);
    return buf;
}

}  // namespace

std::string incidentsToCsv(const std::vector<Incident>& incidents, const RunInfo& info, const std::map<Nanos, IncidentNote>& notes) {
    std::string out = row({"id", "planned", "begin_utc", "begin_s", "end_utc", "cause", "cause_label", "confirmed_cause",
                           "xid", "hardware", "gpus", "time_to_recover_s", "detection_s", "restart_s", "reload_s",
                           "lost_work_s", "step_at_failure", "resumed_from_step", "headline", "tags", "notes", "reporting_ranks",
                           "suspect_ranks", "gpu_hours_lost"});
    for (const Incident& inc : incidents) {
        const auto note = notes.find(inc.begin);
        const IncidentNote* n = note == notes.end() ? nullptr : &note->second;
        out += row({std::to_string(inc.id), inc.planned ? "yes" : "no", isoUtc(info.startEpochNs, inc.begin), seconds(inc.begin),
                    inc.end ? isoUtc(info.startEpochNs, *inc.end) : "", std::string(rootCauseKey(inc.cause)),
                    std::string(rootCauseLabel(inc.cause)),
                    n && n->confirmedCause ? std::string(rootCauseKey(*n->confirmedCause)) : "",
                    inc.xid ? std::to_string(inc.xid) : "", inc.hardware, std::to_string(inc.gpus.size()),
                    seconds(inc.timeToRecover), seconds(inc.detection), seconds(inc.restart), seconds(inc.reload),
                    inc.lostWorkKnown ? seconds(inc.lostWork) : "", optionalStep(inc.stepAtFailure), optionalStep(inc.resumedFromStep), inc.headline,
                    n ? joinTags(n->tags) : "", n ? n->notes : "", rankRanges(inc.reportingRanks), rankRanges(inc.suspectRanks),
                    inc.gpuHoursLost ? gpuHoursCell(*inc.gpuHoursLost) : ""});
    }
    return out;
}

std::string goodputLedgerToCsv(const GoodputLedger& ledger, const RunInfo& info) {
    std::string out = row({"day", "begin_utc", "end_utc", "hours", "productive_s", "detection_s", "restart_s", "reload_s",
                           "lost_work_s", "checkpoint_save_s", "straggler_slowdown_s", "planned_s", "ettr", "goodput"});
    int day = 1;
    for (const GoodputPeriod& p : ledger.days) {
        const Badput& b = p.badput;
        char hours[32];
        std::snprintf(hours, sizeof hours, "%.3f", toSeconds(p.end - p.begin) / 3600.0);
        out += row({std::to_string(day++), isoUtc(info.startEpochNs, p.begin), isoUtc(info.startEpochNs, p.end), hours,
                    seconds(p.productive), seconds(b.detection), seconds(b.restart), seconds(b.reload), seconds(b.lostWork),
                    seconds(b.checkpointSave), seconds(b.stragglerSlowdown), seconds(b.planned),
                    ledger.timeAccounted ? ratio(p.ettr()) : "", ledger.timeAccounted ? ratio(p.goodput()) : ""});
    }
    return out;
}

std::string stragglersToCsv(const StragglerReport& collectives, const StepTimeReport& steps, const Run& run) {
    struct Line {
        const RankStragglerScore* traced = nullptr;
        const RankStepScore* stepped = nullptr;
    };
    std::map<std::int32_t, Line> byRank;
    for (const RankStragglerScore& r : collectives.ranks) byRank[r.rank].traced = &r;
    for (const RankStepScore& r : steps.ranks) byRank[r.rank].stepped = &r;
    std::vector<std::pair<std::int32_t, Line>> lines(byRank.begin(), byRank.end());
    // Most waiting caused first; ranks only step times know of after them, slowest first.
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
        const Nanos wa = a.second.traced ? a.second.traced->totalLateness : -1;
        const Nanos wb = b.second.traced ? b.second.traced->totalLateness : -1;
        if (wa != wb) return wa > wb;
        const double ra = a.second.stepped ? a.second.stepped->meanRatio : 0, rb = b.second.stepped ? b.second.stepped->meanRatio : 0;
        return ra > rb;
    });
    std::string out = row({"rank", "gpu", "host", "waiting_caused_s", "score", "collectives", "late", "step_time_ratio", "telemetry"});
    for (const auto& [rank, line] : lines) {
        std::int32_t gpu = line.traced ? line.traced->gpu : -1;
        if (gpu < 0 && rank >= 0 && static_cast<std::size_t>(rank) < run.rankToGpu.size()) gpu = run.rankToGpu[static_cast<std::size_t>(rank)];
        std::string host;
        if (gpu >= 0 && static_cast<std::size_t>(gpu) < run.topology.gpus.size()) {
            const auto h = run.topology.gpus[static_cast<std::size_t>(gpu)].host;
            if (h >= 0 && static_cast<std::size_t>(h) < run.topology.hosts.size()) host = run.topology.hosts[static_cast<std::size_t>(h)].name;
        }
        const RankStragglerScore* t = line.traced;
        out += row({std::to_string(rank), gpu >= 0 ? std::to_string(gpu) : "", host, t ? seconds(t->totalLateness) : "",
                    t ? ratio(t->score) : "", t ? std::to_string(t->collectives) : "", t ? std::to_string(t->late) : "",
                    line.stepped ? ratio(line.stepped->meanRatio) : "", t ? t->telemetry : ""});
    }
    return out;
}

void checkCsvTablesOutput(const std::string& dir, const std::vector<std::string>& inputs, bool force) {
    std::error_code ec;
    if (std::filesystem::is_symlink(dir, ec) && !force)
        throw Error(dir + " is a symbolic link: the tables are not written through it; name the folder itself");
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) throw Error(dir + " exists and is not a folder");
    for (const char* name : kCsvTableFiles) checkOutput((std::filesystem::path(dir) / name).string(), OutputKind::Csv, inputs, force);
}

void writeCsvTables(const Run& run, const std::map<Nanos, IncidentNote>& notes, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(dir + ": cannot make the folder: " + ec.message());
    const std::filesystem::path d(dir);
    writeText((d / "incidents.csv").string(), incidentsToCsv(buildIncidents(run), run.info, notes));
    writeText((d / "goodput_per_day.csv").string(), goodputLedgerToCsv(computeGoodput(run), run.info));
    writeText((d / "stragglers.csv").string(), stragglersToCsv(analyzeStragglers(run), analyzeStepTimes(run.rankSteps), run));
}

}  // namespace faultline
