#include "cause_groups.h"

namespace faultline {

CauseGroup causeGroup(RootCause cause) {
    if (cause == RootCause::PlannedMaintenance) return CauseGroup::Planned;
    switch (rootCauseInfo(cause).scope) {
        case CauseScope::Gpu: return CauseGroup::Gpu;
        case CauseScope::Host: return CauseGroup::Host;
        case CauseScope::Nic:
        case CauseScope::Network: return CauseGroup::Network;
        case CauseScope::Software: break;
    }
    return CauseGroup::Software;
}

std::string_view causeGroupName(CauseGroup group) {
    switch (group) {
        case CauseGroup::Gpu: return "GPU";
        case CauseGroup::Host: return "Host";
        case CauseGroup::Network: return "Network";
        case CauseGroup::Software: return "Software";
        case CauseGroup::Planned: return "Planned maintenance";
    }
    return "?";
}

bool isNetworkStraggler(std::string_view cause) {
    if (cause.starts_with("network: ")) return true;
    for (std::string_view word : {"PFC", "ECMP", "congestion"})
        if (cause.find(word) != std::string_view::npos) return true;
    return false;
}

}  // namespace faultline
