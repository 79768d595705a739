#include "importer.h"

#include "formats.h"
#include "hostlist.h"
#include "rank_map.h"
#include "run_builder.h"

#include "model/run_file.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace faultline {

namespace {

namespace fs = std::filesystem;

struct Input {
    std::string path;
    bool fromFolder = false;
    std::uint64_t size = 0;
};

std::vector<Input> expandInputs(const std::vector<std::string>& inputs) {
    std::vector<Input> out;
    for (const std::string& p : inputs) {
        std::error_code ec;
        const auto status = fs::status(p, ec);
        if (ec || !fs::exists(status)) throw Error(p + ": no such file or folder");
        if (!fs::is_directory(status)) {
            out.push_back({p, false, fs::file_size(p, ec)});
            continue;
        }
        std::vector<Input> found;
        for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!name.empty() && name.front() == '.') {
                if (it->is_directory()) it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file()) found.push_back({it->path().string(), true, it->file_size()});
        }
        if (ec) throw Error(p + ": cannot list the folder: " + ec.message());
        std::sort(found.begin(), found.end(), [](const Input& a, const Input& b) { return naturalLess(a.path, b.path); });
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

std::string runNameFor(const ImportOptions& options, const std::vector<std::string>& inputs) {
    if (!options.runName.empty()) return options.runName;
    if (inputs.empty()) return "import";
    return fs::path(inputs.front()).filename().string();
}

}  // namespace

ImportResult importFiles(const std::vector<std::string>& inputs, const ImportOptions& options, const ProgressFn& progress,
                         const std::atomic<bool>* cancel) {
    if (inputs.empty()) throw Error("nothing to import: name files or folders");
    const FormatInfo* forced = nullptr;
    if (!options.format.empty()) {
        forced = findFormat(options.format);
        if (!forced) throw Error("unknown format \"" + options.format + "\" (known: " + formatNames() + ")");
    }
    const std::vector<Input> files = expandInputs(inputs);
    std::uint64_t total = 0;
    for (const Input& f : files) total += std::max<std::uint64_t>(f.size, 1);
    std::uint64_t done = 0;

    ImportedEvents events;
    ImportResult result;
    for (const Input& f : files) {
        if (cancel && cancel->load()) throw ImportCancelled();
        FileReport report;
        report.path = f.path;
        const FormatInfo* format = forced ? forced : detectFormat(f.path);
        if (!format) {
            if (!f.fromFolder)
                throw Error(f.path + ": unknown format: not a file Faultline reads (known: " + formatNames() + "; use --format to name one)");
            report.format = "unknown";
            result.summary.files.push_back(std::move(report));
            done += std::max<std::uint64_t>(f.size, 1);
            continue;
        }
        report.format = std::string(format->name);
        ImportContext ctx{options, events, report, cancel, {}};
        const std::uint64_t weight = std::max<std::uint64_t>(f.size, 1);
        if (progress && total > 0)
            ctx.fileProgress = [&, weight](double fraction) {
                progress((static_cast<double>(done) + fraction * static_cast<double>(weight)) / static_cast<double>(total));
            };
        format->import(f.path, ctx);
        done += weight;
        if (progress) progress(static_cast<double>(done) / static_cast<double>(total));
        result.summary.files.push_back(std::move(report));
    }
    const bool anyKnown = std::any_of(result.summary.files.begin(), result.summary.files.end(),
                                      [](const FileReport& f) { return f.format != "unknown"; });
    if (!anyKnown) throw Error("nothing to import: no file in " + inputs.front() + (inputs.size() > 1 ? " (and the rest)" : "") +
                               " is in a format Faultline reads (known: " + formatNames() + ")");
    if (!options.rankMapPath.empty())
        for (RankPlacement& p : readRankMap(options.rankMapPath)) events.placements.push_back(std::move(p));

    BuildResult built = buildRun(events, events.topology, runNameFor(options, inputs));
    result.run = std::move(built.run);
    result.summary.derivedTopology = built.derivedTopology;
    result.summary.hosts = result.run.topology.hosts.size();
    result.summary.gpus = result.run.topology.gpus.size();
    if (!built.warnings.empty() && !result.summary.files.empty())
        for (const std::string& w : built.warnings) result.summary.files.back().warnings.push_back(w);
    return result;
}

ImportSummary importToRunFile(const std::vector<std::string>& inputs, const std::string& output, const ImportOptions& options,
                              const ProgressFn& progress, const std::atomic<bool>* cancel) {
    ImportResult result = importFiles(inputs, options, progress, cancel);
    if (cancel && cancel->load()) throw ImportCancelled();
    writeRunFile(result.run, output);
    result.summary.output = output;
    return result.summary;
}

}  // namespace faultline
