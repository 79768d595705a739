// nvidia-smi --query-gpu=FIELDS --format=csv[,noheader][,nounits] -l N / -lms N logs: any
// fields in any order, values with or without units ("69.32 W"). The GPU is the index,
// pci.bus_id or uuid column; without one, nvidia-smi prints every GPU once per sample in
// device order, so the rows of a sample are GPUs 0, 1, ... of the host. Times are the
// host's clock as nvidia-smi prints it ("2025/07/26 23:32:09.703"), taken as UTC.
#include "importers/telemetry/readers.h"
#include "importers/text/pci_bus_id.h"
#include "importers/text/line_reader.h"
#include "importers/telemetry/telemetry_labels.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <map>

namespace faultline {

namespace {

// "2025/07/26 23:32:09.703" (also with '-' between the date's parts).
std::optional<EpochNs> smiTime(std::string_view s) {
    s = trim(s);
    if (s.size() < 19 || (s[4] != '/' && s[4] != '-') || s[7] != s[4] || s[10] != ' ') return std::nullopt;
    const auto y = parseInt(s.substr(0, 4)), mo = parseInt(s.substr(5, 2)), d = parseInt(s.substr(8, 2));
    const auto clock = parseClock(s.substr(11, 8));
    if (!y || !mo || !d || !clock || *mo < 1 || *mo > 12 || *d < 1 || *d > 31) return std::nullopt;
    std::int64_t frac = 0;
    if (s.size() > 20 && s[19] == '.') {
        std::string_view digits = s.substr(20, 9);
        const auto n = parseInt(digits);
        if (!n) return std::nullopt;
        frac = *n;
        for (std::size_t i = digits.size(); i < 9; ++i) frac *= 10;
    }
    try {
        return epochFromCivil(*y, static_cast<unsigned>(*mo), static_cast<unsigned>(*d), *clock, frac);
    } catch (const TimeOutOfRange&) {
        return std::nullopt;  // the line is skipped, named
    }
}

// "power.draw [W]" -> "power.draw"
std::string fieldName(std::string_view header) {
    std::string_view f = trim(header);
    if (const std::size_t bracket = f.find(" ["); bracket != std::string_view::npos) f = f.substr(0, bracket);
    return std::string(trim(f));
}

struct QueryColumns {
    int time = -1, index = -1, pci = -1, uuid = -1;
    std::vector<std::pair<int, std::string>> metrics;  // column, metric
};

QueryColumns queryColumnsOf(const std::vector<std::string>& fields) {
    QueryColumns c;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string& f = fields[i];
        const int col = static_cast<int>(i);
        if (f == "timestamp") c.time = col;
        else if (f == "index") c.index = col;
        else if (f == "pci.bus_id" || f == "gpu_bus_id") c.pci = col;
        else if (f == "uuid" || f == "gpu_uuid") c.uuid = col;
        else if (f == "name" || f == "gpu_name" || f == "driver_version" || f == "serial" || f == "vbios_version" || f == "pstate" ||
                 f == "count" || f == "compute_mode" || f.rfind("pci.", 0) == 0)
            continue;  // words, not measurements
        else {
            // Two fields of one metric (power.draw beside power.draw.instant): the first is
            // it, the other keeps its own name rather than doubling every sample.
            std::string metric = metricForQueryGpuField(f);
            if (std::any_of(c.metrics.begin(), c.metrics.end(), [&](const auto& m) { return m.second == metric; })) metric = f;
            c.metrics.emplace_back(col, std::move(metric));
        }
    }
    return c;
}

// Rows per sample when no column names the GPU: nvidia-smi writes a sample's rows within a
// few milliseconds and waits the interval before the next, so samples are told apart by
// the gaps; the most common number of rows between gaps is the host's GPU count.
int rowsPerSample(const std::string& path, bool header, int timeColumn) {
    LineReader in(path);
    std::string_view line;
    std::vector<EpochNs> times;
    std::vector<std::string_view> cells;
    if (header) in.next(line);
    while (times.size() < 4096 && in.next(line)) {
        if (trim(line).empty()) continue;
        splitBy(line, ",", cells);
        if (static_cast<std::size_t>(timeColumn) >= cells.size()) continue;
        if (const auto t = smiTime(cells[static_cast<std::size_t>(timeColumn)])) times.push_back(*t);
    }
    if (times.size() < 2) return 1;
    // The interval: a high percentile of the steps between rows (samples of up to 64 GPUs
    // leave more than 1.5% of the steps as gaps); rows closer than half of it share a sample.
    std::vector<EpochNs> steps;
    for (std::size_t i = 1; i < times.size(); ++i) steps.push_back(times[i] - times[i - 1]);
    std::vector<EpochNs> sorted = steps;
    const std::size_t at = sorted.size() - 1 - sorted.size() / 100;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(at), sorted.end());
    const EpochNs largest = sorted[at];
    if (largest < 10'000'000) return 0;  // no gaps: cannot tell samples apart
    std::map<int, int> runs;
    int run = 1;
    for (std::size_t i = 1; i < times.size(); ++i) {
        if (steps[i - 1] >= largest / 2) {
            ++runs[run];
            run = 1;
        } else {
            ++run;
        }
    }
    if (runs.empty()) return 0;
    return std::max_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

}  // namespace

void importNvidiaSmiCsv(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    std::string_view line;
    std::vector<std::string_view> cells;
    std::vector<std::string> fields;
    bool header = false;
    while (in.next(line)) {
        if (trim(line).empty()) continue;
        splitBy(line, ",", cells);
        if (!smiTime(cells.front()) && !telemetryValue(cells.front())) {
            header = true;
            for (std::string_view c : cells) fields.push_back(fieldName(c));
        }
        break;
    }
    if (!header) {
        if (ctx.options.queryGpuFields.empty())
            throw Error(path + ":1: no header line: give the fields the log was written with (--query-gpu timestamp,index,power.draw,...)");
        splitBy(ctx.options.queryGpuFields, ",", cells);
        for (std::string_view c : cells) fields.push_back(fieldName(c));
    }
    const QueryColumns columns = queryColumnsOf(fields);
    if (columns.time < 0) throw Error(path + ":1: no timestamp field: nvidia-smi logs need --query-gpu=timestamp,... to be placed in time");
    if (columns.metrics.empty()) throw Error(path + ":1: no measurement among the fields (expected power.draw, temperature.gpu, clocks.sm, ...)");
    const bool named = columns.index >= 0 || columns.pci >= 0 || columns.uuid >= 0;
    const int perSample = named ? 0 : rowsPerSample(path, header, columns.time);
    if (!named && perSample <= 0)
        throw Error(path + ": no index, pci.bus_id or uuid field, and the rows of one sample cannot be told from the next (no gap between samples): add index to --query-gpu");
    if (!named)
        ctx.report.notes.push_back("no GPU column: each sample's " + std::to_string(perSample) + " rows taken as GPUs 0-" + std::to_string(perSample - 1) + " in device order");

    const std::string host = hostOfUnnamedFile(path, ctx.options.host);
    ImportedTelemetry& telemetry = ctx.events.telemetry;
    std::map<std::string, std::vector<std::int32_t>> seriesOfGpu;  // GPU key -> series per metric column
    std::int64_t row = 0, samples = 0;
    LineReader rows(path, &ctx.report.notes);
    if (header) rows.next(line);
    const std::size_t width = fields.size();
    while (rows.next(line)) {
        if ((rows.lineNumber() & 0xfff) == 0) ctx.tick(rows.progress());
        if (trim(line).empty()) continue;
        splitBy(line, ",", cells);
        if (cells.size() != width) {
            // nvidia-smi repeats its header when it restarts; anything else is a broken line.
            if (trim(cells.front()) == "timestamp") continue;
            ctx.report.skip(rows.where() + ": expected " + std::to_string(width) + " comma-separated fields, found " + std::to_string(cells.size()));
            continue;
        }
        const auto time = smiTime(cells[static_cast<std::size_t>(columns.time)]);
        if (!time) {
            if (trim(cells[static_cast<std::size_t>(columns.time)]) == "timestamp") continue;
            ctx.report.skip(rows.where() + ": expected a timestamp like 2025/07/26 23:32:09.703");
            continue;
        }
        TelemetryGpu gpu;
        gpu.host = host;
        if (columns.index >= 0) {
            const auto n = parseInt(cells[static_cast<std::size_t>(columns.index)]);
            if (!n || *n < 0 || *n >= kMaxGpusPerNode) {
                ctx.report.skip(rows.where() + ": expected a GPU index");
                continue;
            }
            gpu.index = static_cast<std::int32_t>(*n);
        }
        if (columns.pci >= 0) gpu.pciBusId = normalisePciBusId(cells[static_cast<std::size_t>(columns.pci)]);
        if (columns.uuid >= 0) gpu.uuid = std::string(trim(cells[static_cast<std::size_t>(columns.uuid)]));
        if (!named) {
            gpu.index = static_cast<std::int32_t>(row % perSample);
            if (gpu.index >= kMaxGpusPerNode)
                throw Error(rows.where() + ": no GPU column, and the samples come in blocks of " + std::to_string(perSample) + " rows: this row would be GPU " +
                            std::to_string(gpu.index) + ", more than the " + std::to_string(kMaxGpusPerNode) +
                            " GPUs any node has (add index to --query-gpu, or split the file by host)");
        }
        ++row;
        const std::string key = gpu.pciBusId + "|" + gpu.uuid + "|" + std::to_string(gpu.index);
        auto [it, added] = seriesOfGpu.try_emplace(key);
        if (added)
            for (const auto& [col, metric] : columns.metrics) it->second.push_back(telemetry.series(gpu, metric));
        for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
            const auto value = telemetryValue(cells[static_cast<std::size_t>(columns.metrics[m].first)]);
            if (!value) continue;  // [N/A], [Not Supported]
            telemetry.add(it->second[m], *time, *value);
            ++samples;
        }
        ctx.report.seen(*time);
    }
    if (samples == 0) throw Error(path + ": no samples: every row was empty or unreadable");
    ctx.report.count("telemetry samples", samples);
    ctx.report.count("telemetry series", static_cast<std::int64_t>(seriesOfGpu.size() * columns.metrics.size()));
}

}  // namespace faultline
