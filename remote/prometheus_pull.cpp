#include "remote/prometheus_pull.h"

#include "model/error.h"
#include "model/format.h"
#include "remote/prometheus_matrix.h"
#include "remote/prometheus_query_plan.h"
#include "remote/prometheus_remote_read.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <set>

namespace faultline {

namespace {

// Roughly the samples one answer holds (at ~25 bytes of JSON each, ~25 MB of body), for
// hosts of eight GPUs.
constexpr std::int64_t kSamplesPerAnswer = 1'000'000;
constexpr std::int64_t kGpusPerHostGuess = 8;

std::size_t chosenHostsPerQuery(const PrometheusPullOptions& options, std::int64_t pointsPerSlice) {
    if (options.hostsPerQuery > 0) return options.hostsPerQuery;
    return static_cast<std::size_t>(std::max<std::int64_t>(1, kSamplesPerAnswer / (kGpusPerHostGuess * std::max<std::int64_t>(pointsPerSlice, 1))));
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 5; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 5) out += ", ... (" + std::to_string(names.size()) + " in all)";
    return out;
}

}  // namespace

EpochNs systemNow() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

const std::vector<std::string>& defaultPrometheusMetrics() {
    static const std::vector<std::string> metrics = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK",
                                                     "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS",
                                                     "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "DCGM_FI_DEV_XID_ERRORS"};
    return metrics;
}

PrometheusPull pullPrometheus(const PrometheusPullOptions& options, const ProgressFn& progress, const std::atomic<bool>* cancel) {
    if (options.to <= options.from)
        throw Error(options.server.url + ": the span to pull is empty (from " + formatEpochNs(options.from) + " to " + formatEpochNs(options.to) + ")");
    const Nanos step = options.step > 0 ? options.step : chooseStep(options.from, options.to);
    const std::vector<std::string>& metrics = options.metrics.empty() ? defaultPrometheusMetrics() : options.metrics;
    const std::vector<TimeSlice> slices = splitSpan(options.from, options.to, step);
    const std::int64_t pointsPerSlice = std::min<std::int64_t>(kMaxPointsPerSeries, (options.to - options.from) / step + 1);
    const auto batches = hostBatches(options.hosts, chosenHostsPerQuery(options, pointsPerSlice));

    PrometheusClient client(options.server, options.retry, options.sleeper, options.http);
    PrometheusPull out;
    FileReport& report = out.source.report;
    report.path = options.server.url;
    report.format = "prometheus";
    out.pulled.kind = "prometheus";
    out.pulled.url = options.server.url;
    out.pulled.fromEpochNs = options.from;
    out.pulled.toEpochNs = options.to;
    out.pulled.stepNs = step;
    out.pulled.pulledAtEpochNs = options.clock ? options.clock() : systemNow();

    std::set<std::string> hostsSeen;
    std::vector<std::string> metricsWithoutSeries;
    const std::size_t total = metrics.size() * batches.size() * slices.size();
    ImportedTelemetry& telemetry = out.source.events.telemetry;
    MatrixCounts sum;
    // Every query of the pull, asked options.parallelQueries at a time; each answer is read
    // into the telemetry in query order while the next ones are on their way.
    struct Ask {
        std::size_t metric;
        const std::vector<std::string>* hosts;
        std::string query;
        TimeSlice slice;
        bool firstOfQuery;
    };
    std::vector<Ask> asks;
    for (std::size_t m = 0; m < metrics.size(); ++m)
        for (const auto& batch : batches) {
            const std::string query = rangeQuery(metrics[m], options.hostLabel, batch);
            out.pulled.queries.push_back(query);
            for (std::size_t i = 0; i < slices.size(); ++i) asks.push_back({m, &batch, query, slices[i], i == 0});
        }
    // The samples as stored (remote read) where the step is the finest a pull chooses and none
    // was asked: the server copies them out instead of evaluating each query at every step.
    // The first answer that says the server does not serve remote reads turns them off.
    std::atomic<bool> remoteRead = options.step == 0 && step == kFinestPullStep && options.remoteRead;
    struct Answer {
        std::string body;
        bool remote = false;
    };
    auto ask = [&, step, cancel](const Ask& a) {
        if (remoteRead.load()) {
            std::vector<LabelMatch> matchers{{LabelMatch::Kind::Equal, "__name__", metrics[a.metric]}};
            if (!a.hosts->empty()) matchers.push_back({LabelMatch::Kind::Regex, options.hostLabel, hostRegex(options.hostLabel, *a.hosts)});
            if (auto body = client.remoteRead(remoteReadRequest(matchers, a.slice.from, a.slice.to), a.query, cancel)) return Answer{std::move(*body), true};
            remoteRead = false;
        }
        return Answer{client.queryRange(a.query, a.slice.from, a.slice.to, step, cancel), false};
    };
    std::deque<std::future<Answer>> answers;
    std::size_t asked = 0;
    auto askNext = [&] {
        const Ask& a = asks[asked++];
        answers.push_back(std::async(std::launch::async, [&ask, &a] { return ask(a); }));
    };
    std::vector<std::int64_t> seriesOfMetric(metrics.size(), 0);
    std::int64_t seriesOfQuery = 0;
    std::size_t remoteAnswers = 0;
    for (std::size_t i = 0; i < asks.size(); ++i) {
        while (asked < asks.size() && answers.size() < std::max<std::size_t>(options.parallelQueries, 1)) askNext();
        const Answer answer = answers.front().get();
        answers.pop_front();
        const Ask& a = asks[i];
        const std::string where = options.server.url + (answer.remote ? ": remote read of " : ": query ") + a.query;
        const MatrixCounts c = answer.remote ? readRemoteReadResponse(answer.body, where, telemetry, report, hostsSeen)
                                             : readMatrixResponse(answer.body, where, telemetry, report, hostsSeen);
        remoteAnswers += answer.remote ? 1 : 0;
        if (a.firstOfQuery) seriesOfQuery = 0;
        const std::int64_t before = seriesOfQuery;
        seriesOfQuery = std::max(seriesOfQuery, c.series);  // each slice names the same series again
        seriesOfMetric[a.metric] += seriesOfQuery - before;
        sum.series += seriesOfQuery - before;
        sum.samples += c.samples;
        sum.noGpu += c.noGpu;
        sum.skipped += c.skipped;
        if (progress) progress(static_cast<double>(i + 1) / static_cast<double>(total));
    }
    for (std::size_t m = 0; m < metrics.size(); ++m)
        if (seriesOfMetric[m] == 0) metricsWithoutSeries.push_back(metrics[m]);
    telemetry.shrink();
    report.count("queries", static_cast<std::int64_t>(total));
    report.count("telemetry samples", sum.samples);
    report.count("telemetry series", sum.series);
    if (sum.noGpu > 0) report.count("samples of no GPU (skipped)", sum.noGpu);
    if (sum.skipped > 0) report.count("NaN or infinite samples (skipped)", sum.skipped);
    out.retries = client.retries();
    out.remoteRead = remoteAnswers == total;
    if (out.retries > 0) report.count("requests retried", out.retries);
    report.notes.push_back("pulled " + formatEpochNs(options.from) + " to " + formatEpochNs(options.to) +
                           (remoteAnswers == total ? std::string(", the samples as stored (remote read)") : " at a " + apiDuration(step) + " step") + ": " +
                           std::to_string(metrics.size()) + (metrics.size() == 1 ? " metric" : " metrics") + " in " + std::to_string(total) +
                           (total == 1 ? " query" : " queries"));
    if (!metricsWithoutSeries.empty())
        report.warnings.push_back("the server has no series of " + listed(metricsWithoutSeries) + " for these hosts in this span");
    for (const std::string& h : options.hosts)
        if (!hostsSeen.count(h)) out.hostsWithoutSeries.push_back(h);
    if (!out.hostsWithoutSeries.empty())
        report.warnings.push_back(std::to_string(out.hostsWithoutSeries.size()) + " of the hosts asked for have no series on the server (label " +
                                  options.hostLabel + "): " + listed(out.hostsWithoutSeries));
    if (sum.samples == 0) report.warnings.push_back("the server returned no samples for this span");
    return out;
}

namespace {

// The span of what the files read, for a pull given none.
std::pair<EpochNs, EpochNs> spanOfFiles(const ReadImport& read) {
    EpochNs first = 0, last = 0;
    for (const ShardedFile& f : read.files) {
        if (f.report.first == 0 && f.report.last == 0) continue;
        if (first == 0 || f.report.first < first) first = f.report.first;
        last = std::max(last, f.report.last);
    }
    return {first, last};
}

}  // namespace

std::vector<std::string> hostsToPull(const std::vector<const ShardedFile*>& files, const ImportOptions& importOptions) {
    std::vector<std::string> hosts;
    auto add = [&](const std::string& h) {
        if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
    };
    if (!importOptions.jobIds.empty()) {
        for (const std::string& id : importOptions.jobIds)
            for (const ShardedFile* f : files)
                for (const ImportedJob& j : f->events.jobs)
                    if (j.id == id && j.parentId.empty())
                        for (const std::string& n : j.nodes) add(n);
        if (hosts.empty())
            throw Error("--job " + importOptions.jobIds.front() +
                        ": no file read names the job's hosts; import its sacct output with the pull, or name the hosts with --hosts");
        return hosts;
    }
    for (const ShardedFile* f : files)
        if (f->events.topology)
            for (const Host& h : f->events.topology->hosts) add(h.name);
    return hosts;
}

ImportResult importWithPrometheus(const std::vector<std::string>& inputs, const ImportOptions& importOptions, PrometheusPullOptions pull,
                                  const ProgressFn& progress, const std::atomic<bool>* cancel) {
    // The files are read in the first tenth of the progress: the pull is most of the wait.
    const double filesShare = inputs.empty() ? 0.0 : 0.1;
    ReadImport read = readImportFiles(inputs, importOptions, [&](double f) { if (progress) progress(f * filesShare); }, cancel);
    if (pull.from == 0 && pull.to == 0) {
        std::tie(pull.from, pull.to) = spanOfFiles(read);
        if (pull.to <= pull.from) throw Error("give the span to pull with --from and --to: no file read has times to take it from");
    }
    if (pull.hosts.empty()) {
        std::vector<const ShardedFile*> files;
        for (const ShardedFile& f : read.files) files.push_back(&f);
        pull.hosts = hostsToPull(files, importOptions);
    }
    PrometheusPull pulled = pullPrometheus(pull, [&](double f) { if (progress) progress(filesShare + f * (1 - filesShare)); }, cancel);
    if (inputs.empty() && pulled.source.events.telemetry.samples() == 0)
        throw Error(pull.server.url + ": nothing to import: the server returned no samples of " + listed(pull.metrics.empty() ? defaultPrometheusMetrics() : pull.metrics) +
                    (pull.hosts.empty() ? std::string() : " for " + listed(pull.hosts)) + " from " + formatEpochNs(pull.from) + " to " + formatEpochNs(pull.to));
    if (pull.hosts.empty()) pulled.source.report.notes.push_back("no hosts were named, by --hosts, --job or a topology: every host the server has was pulled");
    std::vector<ShardedFile> sources;
    sources.push_back(std::move(pulled.source));
    ImportResult result = buildReadImport(std::move(read), std::move(sources), importOptions);
    result.pulls.push_back(std::move(pulled.pulled));
    return result;
}

}  // namespace faultline
