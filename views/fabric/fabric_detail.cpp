#include "views/fabric/fabric_detail.h"

#include <array>
#include <cstdlib>
#include <utility>

namespace faultline {

namespace {
// The one spelling of each level, read and written.
constexpr std::array<std::pair<FabricDetail, const char*>, 3> kDetailNames{{
    {FabricDetail::Boxes, "boxes"},
    {FabricDetail::Rows, "rows"},
    {FabricDetail::Hall, "hall"},
}};
}  // namespace

const char* fabricDetailName(FabricDetail detail) {
    for (const auto& [d, name] : kDetailNames)
        if (d == detail) return name;
    return "?";
}

std::optional<FabricDetail> fabricDetailFromName(std::string_view name) {
    for (const auto& [d, known] : kDetailNames)
        if (name == known) return d;
    return std::nullopt;
}

std::optional<FabricDetail> pinnedDetailFromEnvironment() {
    const char* name = std::getenv("FAULTLINE_BENCH_DETAIL");
    return name ? fabricDetailFromName(name) : std::nullopt;
}

}  // namespace faultline
