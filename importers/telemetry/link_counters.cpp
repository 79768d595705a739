#include "importers/telemetry/link_counters.h"

#include "importers/events/failure_merge.h"
#include "importers/events/imported_events.h"
#include "importers/text/infiniband_names.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {

namespace {

// A name infiniband-exporter gives an end: an adapter's "host mlx5_N", else a switch.
LinkEndName endFromDescription(std::string_view description) {
    if (auto adapter = hostAdapter(description)) return {adapter->host, adapter->nic, {}};
    return {{}, -1, switchUnitName(description)};
}

std::string countText(double v) {
    return std::abs(v) < 9e15 && v == std::floor(v) ? std::to_string(static_cast<std::int64_t>(v)) : std::to_string(v);
}

}  // namespace

std::optional<LinkLocator> linkDownCounter(std::string_view metric, const Labels& labels) {
    if (metric == "node_infiniband_link_downed_total") {
        const std::string* device = label(labels, "device");
        const auto nic = device ? nicOfDevice(*device) : std::nullopt;
        std::string host = hostFromLabels(labels);
        if (!nic || host.empty()) return std::nullopt;
        return LinkLocator{{std::move(host), *nic, {}}, {}};
    }
    if (metric == "infiniband_linkdownedcounter_total") {
        const std::string* local = label(labels, "local_name");
        if (!local) return std::nullopt;
        const std::string* remote = label(labels, "remote_name");
        return LinkLocator{endFromDescription(*local), remote ? endFromDescription(*remote) : LinkEndName{}};
    }
    return std::nullopt;
}

namespace {

std::optional<LinkEnd> endIn(const Topology& t, const LinkEndName& name) {
    if (!name.switchName.empty()) {
        if (const auto sw = t.findSwitch(name.switchName)) return LinkEnd{NodeKind::Switch, *sw};
        return std::nullopt;
    }
    const auto host = t.findHost(name.host);
    if (!host) return std::nullopt;
    const Host& h = t.hosts[static_cast<std::size_t>(*host)];
    if (name.nic < 0 || name.nic >= h.nicCount) return std::nullopt;
    return LinkEnd{NodeKind::Nic, h.firstNic + name.nic};
}

// A kernel's report of a link going down on the counter's host while the counter rose.
ImportedFailure* kernelLinkDown(ImportedEvents& events, std::size_t logged, const ImportedLinkCounters::LinkDown& d) {
    if (d.link.near.host.empty()) return nullptr;
    for (std::size_t i = 0; i < logged; ++i) {
        ImportedFailure& f = events.failures[i];
        if (f.cause != RootCause::NetworkSwitchCable || f.link || f.sinceBoot || f.where.host != d.link.near.host) continue;
        if (f.time >= d.since - kSameEventWindow && f.time <= d.time + kSameEventWindow) return &f;
    }
    return nullptr;
}

}  // namespace

std::optional<ComponentRef> cableOf(const Topology& t, const LinkLocator& link) {
    const auto near = endIn(t, link.near);
    if (!near) return std::nullopt;
    const auto far = link.far.empty() ? std::nullopt : endIn(t, link.far);
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        const bool joins = far ? (l.lower == *near && l.upper == *far) || (l.lower == *far && l.upper == *near)
                               : near->kind == NodeKind::Nic && l.lower == *near;  // a NIC has one cable, up
        if (joins) return ComponentRef{ComponentKind::Link, static_cast<std::int32_t>(i)};
    }
    if (near->kind == NodeKind::Nic) return ComponentRef{ComponentKind::Nic, near->index};
    return std::nullopt;
}

void addLinkDownFailures(ImportedEvents& events) {
    const std::size_t logged = events.failures.size();  // what the logs said, before any counter
    for (const ImportedLinkCounters::LinkDown& d : events.linkCounters.linkDowns()) {
        const std::string far = d.link.far.empty() ? "" : " (cabled to " + d.link.far.text() + ")";
        const std::string detail =
            "link down: " + d.metric + " rose from " + countText(d.before) + " to " + countText(d.after) + " on " + d.link.near.text() + far;
        if (ImportedFailure* seen = kernelLinkDown(events, logged, d)) {
            seen->link = d.link;
            seen->detail += "; also " + detail + " (" + d.source + ")";
            continue;
        }
        ImportedFailure f;
        f.time = d.time;
        f.cause = RootCause::NetworkSwitchCable;
        f.link = d.link;
        f.where.host = d.link.near.host;
        f.detail = detail;
        f.source = d.source;
        events.failures.push_back(std::move(f));
    }
}

}  // namespace faultline
