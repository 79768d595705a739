#include "link_counter_logs.h"

#include <algorithm>
#include <vector>

namespace faultline {

namespace {

constexpr Nanos kLinkCounterScrape = kMinute;  // Prometheus's default scrape interval
constexpr Nanos kAround = 10 * kMinute;         // scrapes kept before and after each failure

struct LinkDown {
    Nanos time = 0;
    std::int32_t nic = 0;  // index within the host
};

}  // namespace

std::map<std::int32_t, std::string> linkDownCounterScrapes(const Run& run) {
    const Topology& t = run.topology;
    std::map<std::int32_t, std::vector<LinkDown>> byHost;
    for (const Failure& f : run.failures) {
        if (f.component.kind != ComponentKind::Link) continue;
        const Link& l = t.links[static_cast<std::size_t>(f.component.index)];
        if (l.lower.kind != NodeKind::Nic) continue;  // a cable between switches: no host counts it
        const Nic& nic = t.nics[static_cast<std::size_t>(l.lower.index)];
        byHost[nic.host].push_back({f.time, nic.index});
    }
    std::map<std::int32_t, std::string> out;
    for (auto& [host, downs] : byHost) {
        std::stable_sort(downs.begin(), downs.end(), [](const LinkDown& a, const LinkDown& b) { return a.time < b.time; });
        const Host& h = t.hosts[static_cast<std::size_t>(host)];
        std::string text =
            "# HELP node_infiniband_link_downed_total Number of times the link failed to recover from an error state and went down\n"
            "# TYPE node_infiniband_link_downed_total counter\n";
        std::vector<int> count(static_cast<std::size_t>(h.nicCount), 0);
        std::size_t next = 0;  // the first failure not yet counted
        Nanos scraped = -1;    // the last scrape written
        for (const LinkDown& d : downs) {
            // Scrapes on the run's whole minutes, from kAround before the failure to kAround after.
            const Nanos from = std::max({Nanos{0}, scraped + kLinkCounterScrape, (d.time - kAround) / kLinkCounterScrape * kLinkCounterScrape});
            for (Nanos s = from; s <= std::min(run.info.duration, d.time + kAround); s += kLinkCounterScrape) {
                for (; next < downs.size() && downs[next].time <= s; ++next) ++count[static_cast<std::size_t>(downs[next].nic)];
                const std::string ms = std::to_string((run.info.startEpochNs + s) / 1'000'000);
                for (std::int32_t n = 0; n < h.nicCount; ++n)
                    text += "node_infiniband_link_downed_total{device=\"mlx5_" + std::to_string(n) + "\",instance=\"" + h.name +
                            ":9100\",job=\"node\",port=\"1\"} " + std::to_string(count[static_cast<std::size_t>(n)]) + " " + ms + "\n";
                scraped = s;
            }
        }
        out[host] = std::move(text);
    }
    return out;
}

}  // namespace faultline
