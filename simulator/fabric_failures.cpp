#include "fabric_failures.h"

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

// Rates per component-hour. docs/fabric-presets.md says where each comes from.
// Calibrated: Llama 3's 35 network switch/cable interruptions in 54 days on 16,384 GPUs of
// Meta's RoCE cluster (52.5 at 24,576 GPUs), less the RTSW failures below, over 24,576 host cables.
constexpr double kLinkFlap = 1.34e-6;
// Assumption: a switch fails hard once in 200,000 hours (MTBF of the order vendors quote).
constexpr double kSwitch = 5e-6;
// Assumption: a 400G optical transceiver fails once in 5 million hours; an optical cable has two.
constexpr double kOpticalCable = 2 * 2e-7;
// Assumptions (no public rate): a PFC pause storm once per RTSW per 10 years; an ECMP hash
// collision bad enough to slow the job once per RTSW per 5 years (Meta's E-ECMP and QP
// scaling made them rare); a subnet manager event that reroutes the fabric once in 20 days.
constexpr double kPfcStorm = 1.0 / (10 * 8'760.0);
constexpr double kEcmpCollision = 1.0 / (5 * 8'760.0);
constexpr double kSubnetManager = 1.0 / (20 * 24.0);
// Assumption: 30% of a step is communication not hidden behind compute, so losing a share s
// of a leaf's uplinks slows the step by 0.3 * s / (1 - s).
constexpr double kExposedComm = 0.3;
constexpr double lostUplink(int uplinks) { return 1.0 + kExposedComm / (uplinks - 1); }
constexpr Nanos kRepair = 6 * kHour;  // a failed optic or switch drained until replaced

std::vector<std::int32_t> components(const Topology& t, FabricPart part) {
    std::vector<std::int32_t> out;
    auto tierIs = [&t](std::int32_t sw, SwitchTier tier) { return t.switches[static_cast<std::size_t>(sw)].tier == tier; };
    switch (part) {
        case FabricPart::HostLink:
        case FabricPart::TrunkLink:
            for (std::size_t i = 0; i < t.links.size(); ++i) {
                const Link& l = t.links[i];
                const bool host = l.lower.kind == NodeKind::Nic;
                const bool trunk = !host && tierIs(l.lower.index, SwitchTier::Rack);
                if (part == FabricPart::HostLink ? host : trunk) out.push_back(static_cast<std::int32_t>(i));
            }
            break;
        case FabricPart::LeafSwitch:
        case FabricPart::SpineSwitch:
            for (std::size_t i = 0; i < t.switches.size(); ++i)
                if (tierIs(static_cast<std::int32_t>(i), part == FabricPart::LeafSwitch ? SwitchTier::Rack : SwitchTier::Cluster))
                    out.push_back(static_cast<std::int32_t>(i));
            break;
        case FabricPart::Subnet:
            out.push_back(-1);
            break;
    }
    return out;
}

bool isLink(FabricPart part) { return part == FabricPart::HostLink || part == FabricPart::TrunkLink; }

}  // namespace

std::vector<FabricFailureKind> fabricFailureKinds(FabricKind fabric) {
    using enum FabricPart;
    using enum FabricEffect;
    switch (fabric) {
        case FabricKind::RoceClos:
            // Host cables are copper inside the rack (the RTSW sits on it): flaps, no optics.
            // An RTSW has 8 uplinks, one to each CTSW of its zone.
            return {{"link flap", HostLink, kLinkFlap, Interruption},
                    {"switch failure", LeafSwitch, kSwitch, Interruption},
                    {"optics failure", TrunkLink, kOpticalCable, Slowdown, lostUplink(8), kRepair},
                    {"switch failure", SpineSwitch, kSwitch, Slowdown, lostUplink(8), kRepair},
                    {"PFC storm", LeafSwitch, kPfcStorm, Slowdown, 1.5, 10 * kMinute},
                    {"ECMP hash collision", LeafSwitch, kEcmpCollision, Slowdown, 1.15, 45 * kMinute}};
        case FabricKind::InfinibandFatTree:
            // Rail leaves stand in network racks: every cable is optical. A leaf has 32
            // uplinks; adaptive routing and the subnet manager route around a failed one.
            return {{"link flap", HostLink, kLinkFlap, Interruption},
                    {"optics failure", HostLink, kOpticalCable, Interruption},
                    {"switch failure", LeafSwitch, kSwitch, Interruption},
                    {"optics failure", TrunkLink, kOpticalCable, Slowdown, lostUplink(32), kRepair},
                    {"switch failure", SpineSwitch, kSwitch, Slowdown, lostUplink(32), kRepair},
                    {"subnet manager event", Subnet, kSubnetManager, Interruption}};
        case FabricKind::GenericTree:
            break;
    }
    return {};
}

std::size_t fabricPartCount(const Topology& t, FabricPart part) { return components(t, part).size(); }

FabricFailures drawFabricFailures(const Topology& t, const std::vector<FabricFailureKind>& kinds, Nanos duration, Random& random) {
    FabricFailures out;
    const double hours = static_cast<double>(duration) / static_cast<double>(kHour);
    for (const FabricFailureKind& kind : kinds) {
        const std::vector<std::int32_t> parts = components(t, kind.part);
        const double perHour = kind.perComponentHour * static_cast<double>(parts.size());
        if (perHour <= 0) continue;
        for (double at = random.exponential(perHour); at < hours; at += random.exponential(perHour)) {
            const Nanos time = static_cast<Nanos>(at * static_cast<double>(kHour));
            const std::int32_t part = parts[static_cast<std::size_t>(random.index(static_cast<std::int64_t>(parts.size())))];
            std::string where;
            std::vector<std::int32_t> gpus;
            if (kind.part == FabricPart::Subnet) {
                where = "the subnet manager rerouted the fabric; collectives timed out across it";
            } else if (isLink(kind.part)) {
                where = t.linkName(part);
                gpus = t.gpusBelowLink(part);
            } else {
                where = t.switches[static_cast<std::size_t>(part)].name;
                gpus = t.gpusBelowSwitch(part);
            }
            if (kind.effect == FabricEffect::Interruption) {
                Failure f;
                f.time = time;
                f.cause = RootCause::NetworkSwitchCable;
                if (kind.part != FabricPart::Subnet) f.component = {isLink(kind.part) ? ComponentKind::Link : ComponentKind::Switch, part};
                f.gpus = std::move(gpus);
                f.detail = std::string(kind.name) + (kind.part == FabricPart::Subnet ? ": " : " on ") + where;
                out.interruptions.push_back(std::move(f));
                continue;
            }
            // Rerouted or paused traffic: the GPUs below wait on it for the same stretch.
            const Nanos length = static_cast<Nanos>(random.logNormal(static_cast<double>(kind.duration), 0.8));
            const double slowdown = std::min(3.0, 1.0 + random.logNormal(kind.slowdown - 1.0, 0.3));
            const std::string cause = "network: " + std::string(kind.name) + " on " + where;
            for (std::int32_t gpu : gpus) out.slowdowns.push_back({gpu, time, std::min(duration, time + length), slowdown, cause});
        }
    }
    std::stable_sort(out.interruptions.begin(), out.interruptions.end(), [](const Failure& a, const Failure& b) { return a.time < b.time; });
    std::stable_sort(out.slowdowns.begin(), out.slowdowns.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    return out;
}

}  // namespace faultline
