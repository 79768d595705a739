#include "importers/text/infiniband_names.h"

#include "importers/text/text_parse.h"

namespace faultline {

namespace {

constexpr std::int32_t kMaxNicsPerHost = 64;

}  // namespace

std::optional<std::int32_t> nicOfDevice(std::string_view device) {
    device = trim(device);
    if (startsWith(device, "HCA-")) {
        const auto n = parseInt(device.substr(4));
        if (n && *n >= 1 && *n <= kMaxNicsPerHost) return static_cast<std::int32_t>(*n - 1);
        return std::nullopt;
    }
    // Any RDMA device the kernel names: a lower-case driver name, then its index (mlx4_0,
    // mlx5_3, hfi1_0, ibp3, qib0, bnxt_re1, irdma0).
    std::size_t digits = device.size();
    while (digits > 0 && isDigit(device[digits - 1])) --digits;
    if (digits == 0 || digits == device.size() || digits > 16) return std::nullopt;
    if (!(device.front() >= 'a' && device.front() <= 'z')) return std::nullopt;
    for (char c : device.substr(0, digits))
        if (!((c >= 'a' && c <= 'z') || isDigit(c) || c == '_')) return std::nullopt;
    const auto n = parseInt(device.substr(digits));
    if (n && *n >= 0 && *n < kMaxNicsPerHost) return static_cast<std::int32_t>(*n);
    return std::nullopt;
}

namespace {

// A host name on its own: lower-case letters, digits, '-', '.', '_', starting with a letter
// or digit (an adapter whose description is its node's name).
bool hostNameAlone(std::string_view s) {
    if (s.empty() || s.size() > 64 || !(isDigit(s.front()) || (s.front() >= 'a' && s.front() <= 'z'))) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || isDigit(c) || c == '-' || c == '.' || c == '_')) return false;
    return true;
}

}  // namespace

std::optional<HostAdapter> hostAdapter(std::string_view description) {
    description = trim(description);
    std::size_t split = description.rfind(' ');
    if (split == std::string_view::npos) split = description.rfind('.');
    if (split != std::string_view::npos) {
        const std::string_view host = trim(description.substr(0, split));
        if (const auto nic = nicOfDevice(description.substr(split + 1)); nic && !host.empty()) return HostAdapter{std::string(host), *nic};
    }
    // The node description alone ("compute-017"): the host's first adapter.
    if (description.find(' ') == std::string_view::npos && hostNameAlone(description)) return HostAdapter{std::string(description), 0};
    return std::nullopt;
}

std::string switchUnitName(std::string_view description) { return std::string(description.substr(0, description.find(':'))); }

}  // namespace faultline
