#include "importers/text/infiniband_names.h"

#include "importers/text/text_parse.h"

namespace faultline {

namespace {

constexpr std::int32_t kMaxNicsPerHost = 64;

}  // namespace

std::optional<std::int32_t> nicOfDevice(std::string_view device) {
    device = trim(device);
    if (startsWith(device, "mlx5_")) {
        const auto n = parseInt(device.substr(5));
        if (n && *n >= 0 && *n < kMaxNicsPerHost) return static_cast<std::int32_t>(*n);
    } else if (startsWith(device, "HCA-")) {
        const auto n = parseInt(device.substr(4));
        if (n && *n >= 1 && *n <= kMaxNicsPerHost) return static_cast<std::int32_t>(*n - 1);
    }
    return std::nullopt;
}

std::optional<HostAdapter> hostAdapter(std::string_view description) {
    description = trim(description);
    std::size_t split = description.rfind(' ');
    if (split == std::string_view::npos) split = description.rfind('.');
    if (split == std::string_view::npos) return std::nullopt;
    const std::string_view host = trim(description.substr(0, split));
    const auto nic = nicOfDevice(description.substr(split + 1));
    if (host.empty() || !nic) return std::nullopt;
    return HostAdapter{std::string(host), *nic};
}

std::string switchUnitName(std::string_view description) { return std::string(description.substr(0, description.find(':'))); }

}  // namespace faultline
