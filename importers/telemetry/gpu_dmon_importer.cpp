// nvidia-smi dmon and dcgmi dmon: a header of column names ("# gpu pwr gtemp ... pclk",
// "#Entity POWER TMPTR SMCLK"), a line of units, then one row per GPU per sample, the
// header repeated now and then. With -o DT (nvidia-smi) each row carries its date and time;
// without them samples are taken 1 s apart (the tools' default interval), the last at the
// file's modification time, and the report says so.
#include "importers/telemetry/readers.h"
#include "importers/text/line_reader.h"
#include "importers/telemetry/telemetry_labels.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <map>

namespace faultline {

namespace {

void splitWords(std::string_view s, std::vector<std::string_view>& out) {
    out.clear();
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
}

struct DmonLayout {
    bool dcgmi = false;  // rows start "GPU 0"
    int date = -1, time = -1, gpu = -1;
    std::vector<std::pair<std::size_t, std::string>> metrics;  // row word, metric
};

std::optional<DmonLayout> dmonLayoutOf(std::string_view headerLine) {
    std::string_view h = trim(headerLine);
    if (h.empty() || h.front() != '#') return std::nullopt;
    h.remove_prefix(1);
    std::vector<std::string_view> words;
    splitWords(h, words);
    if (words.empty()) return std::nullopt;
    DmonLayout l;
    std::size_t word = 0;
    for (std::string_view w : words) {
        if (w == "Entity") {
            l.dcgmi = true;
            l.gpu = static_cast<int>(word + 1);
            word += 2;
            continue;
        }
        if (w == "Date") l.date = static_cast<int>(word);
        else if (w == "Time") l.time = static_cast<int>(word);
        else if (w == "gpu" || w == "Idx") l.gpu = static_cast<int>(word);
        else l.metrics.emplace_back(word, metricForDmonColumn(w));
        ++word;
    }
    if (l.gpu < 0 || l.metrics.empty()) return std::nullopt;
    return l;
}

// "20240731" "11:22:39"
std::optional<EpochNs> dmonTime(std::string_view date, std::string_view time) {
    if (date.size() != 8) return std::nullopt;
    const auto y = parseInt(date.substr(0, 4)), m = parseInt(date.substr(4, 2)), d = parseInt(date.substr(6, 2));
    const auto clock = parseClock(time);
    if (!y || !m || !d || !clock || *m < 1 || *m > 12 || *d < 1 || *d > 31) return std::nullopt;
    try {
        return epochFromCivil(*y, static_cast<unsigned>(*m), static_cast<unsigned>(*d), *clock);
    } catch (const TimeOutOfRange&) {
        return std::nullopt;  // the line is skipped, named
    }
}

}  // namespace

void importGpuDmon(const std::string& path, ImportContext& ctx) {
    // First pass: the layout, and the number of samples (for files without times).
    std::optional<DmonLayout> layout;
    std::int64_t sampleCount = 0;
    {
        LineReader in(path);
        std::string_view line;
        std::vector<std::string_view> words;
        std::int32_t previous = -1;
        while (in.next(line)) {
            const std::string_view t = trim(line);
            if (t.empty()) continue;
            if (t.front() == '#') {
                if (!layout) layout = dmonLayoutOf(t);
                continue;
            }
            if (!layout) throw Error(in.where() + ": expected the dmon header (\"# gpu pwr gtemp ...\" or \"#Entity POWER TMPTR ...\") before the rows");
            splitWords(t, words);
            if (static_cast<std::size_t>(layout->gpu) >= words.size()) continue;
            const auto gpu = parseInt(words[static_cast<std::size_t>(layout->gpu)]);
            if (!gpu) continue;
            if (*gpu <= previous || previous < 0) ++sampleCount;
            previous = static_cast<std::int32_t>(*gpu);
        }
    }
    if (!layout) throw Error(path + ": no dmon header (\"# gpu pwr gtemp ...\" or \"#Entity POWER TMPTR ...\")");
    const bool timed = layout->date >= 0 && layout->time >= 0;
    const EpochNs last = fileModifiedTime(path);
    constexpr EpochNs kInterval = 1'000'000'000;
    if (!timed)
        ctx.report.notes.push_back("no time columns: " + std::to_string(sampleCount) + " samples taken 1 s apart (dmon's default interval), the last at the file's modification time " +
                                   formatEpochNs(last));

    const std::string host = hostOfUnnamedFile(path, ctx.options.host);
    ImportedTelemetry& telemetry = ctx.events.telemetry;
    std::map<std::int32_t, std::vector<std::int32_t>> seriesOfGpu;
    LineReader in(path, &ctx.report.notes);
    std::string_view line;
    std::vector<std::string_view> words;
    std::int32_t previous = -1;
    std::int64_t sample = -1, samples = 0;
    while (in.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        const std::string_view t = trim(line);
        if (t.empty() || t.front() == '#' || startsWith(t, "ID") || startsWith(t, "Id")) continue;
        splitWords(t, words);
        const std::size_t needed = std::max({layout->metrics.back().first + 1, static_cast<std::size_t>(layout->gpu) + 1,
                                             static_cast<std::size_t>(std::max(layout->date, layout->time) + 1)});
        if (words.size() < needed || (layout->dcgmi && words.front() != "GPU")) {
            if (!layout->dcgmi || words.front() == "GPU") ctx.report.skip(in.where() + ": expected " + std::to_string(needed) + " columns as the header names them");
            continue;
        }
        const auto gpu = parseInt(words[static_cast<std::size_t>(layout->gpu)]);
        if (!gpu || *gpu < 0 || *gpu >= kMaxGpusPerNode) {
            ctx.report.skip(in.where() + ": expected a GPU index");
            continue;
        }
        if (*gpu <= previous || previous < 0) ++sample;
        previous = static_cast<std::int32_t>(*gpu);
        EpochNs time = last - (sampleCount - 1 - sample) * kInterval;
        if (timed) {
            const auto at = dmonTime(words[static_cast<std::size_t>(layout->date)], words[static_cast<std::size_t>(layout->time)]);
            if (!at) {
                ctx.report.skip(in.where() + ": expected a date and time like 20240731 11:22:39");
                continue;
            }
            time = *at;
        }
        auto [it, added] = seriesOfGpu.try_emplace(static_cast<std::int32_t>(*gpu));
        if (added) {
            TelemetryGpu g;
            g.host = host;
            g.index = static_cast<std::int32_t>(*gpu);
            for (const auto& [word, metric] : layout->metrics) it->second.push_back(telemetry.series(g, metric));
        }
        for (std::size_t m = 0; m < layout->metrics.size(); ++m) {
            const auto value = telemetryValue(words[layout->metrics[m].first]);
            if (!value) continue;  // "-": not supported on this GPU
            telemetry.add(it->second[m], time, *value);
            ++samples;
        }
        ctx.report.seen(time);
    }
    if (samples == 0) throw Error(path + ": no samples: the dmon header is followed by no rows of numbers");
    ctx.report.count("telemetry samples", samples);
    ctx.report.count("telemetry series", static_cast<std::int64_t>(seriesOfGpu.size() * layout->metrics.size()));
}

}  // namespace faultline
