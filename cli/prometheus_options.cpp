#include "cli/prometheus_options.h"

#include "cli/args.h"
#include "remote/pull_time.h"

#include <chrono>
#include <cstdlib>

namespace faultline::cli {

namespace {

std::vector<std::string> commaList(const std::string& text) {
    std::vector<std::string> out;
    std::string item;
    for (char c : text + ",") {
        if (c != ',') {
            item += c;
        } else if (!item.empty()) {
            out.push_back(item);
            item.clear();
        }
    }
    return out;
}

EpochNs pullTime(const Args& args, const char* name, EpochNs now) {
    const std::string text = *args.value(name);
    const auto t = parsePullTime(text, now);
    if (!t) throw UsageError(std::string(name) + " expects an ISO time (2025-01-21T04:00:00Z), seconds since 1970, \"now\" or \"now-2d\", not \"" + text + "\"");
    return *t;
}

}  // namespace

const std::vector<OptionSpec>& prometheusOptions() {
    static const std::vector<OptionSpec> options = {
        {"--prometheus", "", "URL", "pull GPU telemetry from this Prometheus server (http://HOST:9090) into the run"},
        {"--from", "", "TIME", "the pull's start: ISO time, seconds since 1970, now or now-2d (default: the files' first event; with --follow, else now-1h)"},
        {"--to", "", "TIME", "the pull's end (default: the files' last event; with --follow, now at each look)"},
        {"--hosts", "", "LIST", "the hosts to pull, comma-separated (default: --job's hosts in its sacct output, else the topology's, else all)"},
        {"--metrics", "", "LIST", "the metrics to pull, comma-separated (default: dcgm-exporter's power, temperature, SM clock, utilisation, "
                                  "throttle reasons, ECC and Xid counters)"},
        {"--step", "", "DURATION", "the resolution to pull at (default: 15s, coarser for spans past a week)"},
        {"--host-label", "", "NAME", "the label that names a series' host (default: Hostname, dcgm-exporter's; instance for node_exporter)"},
        {"--timeout", "", "SECONDS", "give up on a request after this long (default 60); busy servers are retried with back-off"},
        {"--token-file", "", "FILE", "a file holding a bearer token (else $FAULTLINE_PROMETHEUS_TOKEN)"},
        {"--basic-auth-file", "", "FILE", "a file holding one line user:password (else $FAULTLINE_PROMETHEUS_BASIC_AUTH)"},
        {"--ca-file", "", "FILE", "certificate authorities to verify the server's TLS certificate with (default: the system's)"},
    };
    return options;
}

std::optional<PrometheusPullOptions> readPrometheusOptions(const Args& args, bool following) {
    const auto url = args.value("--prometheus");
    if (!url) {
        for (const OptionSpec& o : prometheusOptions())
            if (o.name != "--prometheus" && (args.value(o.name) || args.flag(o.name))) throw UsageError(o.name + " belongs to a pull: give --prometheus URL");
        return std::nullopt;
    }
    PrometheusPullOptions pull;
    pull.server.url = checkedServerUrl(*url);
    const EpochNs now = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (following) {
        if (args.value("--to")) throw UsageError("--to cannot be given with --follow: a followed pull goes up to now, until following ends");
        if (args.value("--from")) pull.from = pullTime(args, "--from", now);
    } else if (args.value("--from").has_value() != args.value("--to").has_value()) {
        throw UsageError("give both --from and --to, or neither (the files' span)");
    }
    if (!following && args.value("--from")) {
        pull.from = pullTime(args, "--from", now);
        pull.to = pullTime(args, "--to", now);
        if (pull.to <= pull.from) throw UsageError("--to must come after --from");
    }
    if (auto hosts = args.value("--hosts")) {
        pull.hosts = commaList(*hosts);
        if (pull.hosts.empty()) throw UsageError("--hosts expects host names such as node01,node02");
        if (args.value("--job")) throw UsageError("give --hosts or --job, not both: --job pulls the job's hosts");
    }
    if (auto metrics = args.value("--metrics")) {
        pull.metrics = commaList(*metrics);
        if (pull.metrics.empty()) throw UsageError("--metrics expects metric names such as DCGM_FI_DEV_POWER_USAGE");
    }
    if (auto step = args.duration("--step")) pull.step = *step;
    if (auto label = args.value("--host-label")) pull.hostLabel = *label;
    if (auto timeout = args.number("--timeout")) {
        if (*timeout <= 0) throw UsageError("--timeout expects a number of seconds above 0");
        pull.server.timeoutSeconds = *timeout;
    }
    pull.server.caFile = args.value("--ca-file").value_or("");
    pull.server.credentials = readPrometheusCredentials(args.value("--token-file").value_or(""), args.value("--basic-auth-file").value_or(""),
                                                        [](const char* name) { return std::getenv(name); });
    return pull;
}

}  // namespace faultline::cli
