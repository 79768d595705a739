#include "importers/text/pci_bus_id.h"

#include "importers/text/text_parse.h"

#include <algorithm>
#include <cctype>

namespace faultline {

std::string normalisePciBusId(std::string_view id) {
    std::string s;
    for (char c : trim(id)) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (const std::size_t dot = s.rfind('.'); dot != std::string::npos && dot + 2 == s.size()) s.resize(dot);
    // Domain: nvidia-smi writes 8 hex digits ("00000000:38:00"), the kernel 4; none means 0.
    const std::size_t firstColon = s.find(':');
    const std::size_t lastColon = s.rfind(':');
    if (firstColon == std::string::npos) return s;
    // Built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on inserting a literal.
    std::string domain = firstColon == lastColon ? std::string() : s.substr(0, firstColon);
    while (domain.size() > 4 && domain.front() == '0') domain.erase(0, 1);
    std::string out(4 - std::min<std::size_t>(domain.size(), 4), '0');
    out += domain;
    if (firstColon == lastColon) {
        out += ':';
        out += s;
    } else {
        out += s.substr(firstColon);
    }
    return out;
}

}  // namespace faultline
