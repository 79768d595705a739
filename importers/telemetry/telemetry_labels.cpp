#include "importers/telemetry/telemetry_labels.h"

#include "importers/events/imported_events.h"
#include "importers/text/pci_bus_id.h"
#include "importers/text/text_parse.h"

#include <cctype>
#include <charconv>
#include <sys/stat.h>

namespace faultline {

const std::string* label(const Labels& labels, std::string_view key) {
    for (const auto& [k, v] : labels)
        if (k == key && !v.empty()) return &v;
    return nullptr;
}

std::optional<TelemetryGpu> gpuFromLabels(const Labels& labels) {
    TelemetryGpu gpu;
    const std::string* index = label(labels, "gpu");
    if (!index) index = label(labels, "index");
    if (!index) index = label(labels, "minor_number");
    if (index) {
        const auto n = parseInt(*index);
        if (!n || *n < 0 || *n >= kMaxGpusPerNode) return std::nullopt;
        gpu.index = static_cast<std::int32_t>(*n);
    }
    if (const std::string* uuid = label(labels, "UUID")) gpu.uuid = *uuid;
    else if (const std::string* lower = label(labels, "uuid")) gpu.uuid = *lower;
    if (const std::string* pci = label(labels, "pci_bus_id")) gpu.pciBusId = normalisePciBusId(*pci);
    if (gpu.index < 0 && gpu.uuid.empty() && gpu.pciBusId.empty()) return std::nullopt;
    gpu.host = hostFromLabels(labels);
    return gpu;
}

namespace {

constexpr std::string_view kHostLabels[] = {"Hostname", "hostname", "node", "kubernetes_node", "exported_instance", "instance"};

// A host name is one line of printable text: a value with a newline or another control
// character would print as two hosts, or move the cursor, wherever it is shown.
bool printable(std::string_view v) {
    for (const char ch : v) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) return false;
    }
    return true;
}

// "a\nb" for messages: control characters escaped.
std::string escaped(std::string_view v) {
    std::string out;
    for (const char ch : v) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else out += ch;
    }
    return out;
}

}  // namespace

std::string hostFromLabels(const Labels& labels) {
    for (std::string_view key : kHostLabels) {
        if (const std::string* host = label(labels, key)) {
            if (!printable(*host)) continue;  // refused (refusedHostLabel says why)
            std::string h = *host;
            // A scrape target "10.0.172.246:9400" names the exporter, not the machine's name;
            // it still tells two hosts apart when nothing better is said. A label that is a
            // host name (dcgm-exporter's Hostname, a node) is kept whole, ':' and all.
            const bool target = key == "instance" || key == "exported_instance";
            if (const std::size_t colon = h.rfind(':'); target && colon != std::string::npos && h.find(':') == colon) h.resize(colon);
            return h;
        }
    }
    return {};
}

std::optional<std::string> refusedHostLabel(const Labels& labels) {
    for (std::string_view key : kHostLabels)
        if (const std::string* host = label(labels, key); host && !printable(*host))
            return "label " + std::string(key) + "=\"" + escaped(*host) + "\" holds a newline or control character: not a host name";
    return std::nullopt;
}

std::string metricFromLabels(std::string_view name, const Labels& labels) {
    std::string metric(name);
    if (const std::string* mode = label(labels, "mode")) metric += "{mode=\"" + *mode + "\"}";
    return metric;
}

std::string metricForQueryGpuField(std::string_view field) {
    struct Map {
        std::string_view field, metric;
    };
    static constexpr Map kFields[] = {
        // Drivers from 535 on write the one-second average and the instant draw beside
        // power.draw: each is the GPU's power (a log with several keeps the first of these).
        {"power.draw", "DCGM_FI_DEV_POWER_USAGE"},
        {"power.draw.average", "DCGM_FI_DEV_POWER_USAGE"},
        {"power.draw.instant", "DCGM_FI_DEV_POWER_USAGE"},
        {"temperature.gpu", "DCGM_FI_DEV_GPU_TEMP"},
        {"temperature.memory", "DCGM_FI_DEV_MEMORY_TEMP"},
        {"clocks.sm", "DCGM_FI_DEV_SM_CLOCK"},
        {"clocks.current.sm", "DCGM_FI_DEV_SM_CLOCK"},
        {"clocks.mem", "DCGM_FI_DEV_MEM_CLOCK"},
        {"clocks.memory", "DCGM_FI_DEV_MEM_CLOCK"},
        {"clocks.current.mem", "DCGM_FI_DEV_MEM_CLOCK"},
        {"clocks.current.graphics", "DCGM_FI_DEV_SM_CLOCK"},
        {"clocks.gr", "DCGM_FI_DEV_SM_CLOCK"},
        {"clocks.current.memory", "DCGM_FI_DEV_MEM_CLOCK"},
        {"utilization.gpu", "DCGM_FI_DEV_GPU_UTIL"},
        {"utilization.memory", "DCGM_FI_DEV_MEM_COPY_UTIL"},
        {"memory.used", "DCGM_FI_DEV_FB_USED"},
        {"memory.free", "DCGM_FI_DEV_FB_FREE"},
        {"clocks_throttle_reasons.active", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"},
        {"clocks_event_reasons.active", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"},
        {"ecc.errors.corrected.volatile.device_memory", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"},
        {"ecc.errors.uncorrected.volatile.device_memory", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"},
        {"ecc.errors.corrected.volatile.total", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"},
        {"ecc.errors.uncorrected.volatile.total", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"},
        {"ecc.errors.corrected.aggregate.total", "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL"},
        {"ecc.errors.uncorrected.aggregate.total", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL"},
    };
    for (const Map& m : kFields)
        if (m.field == field) return std::string(m.metric);
    return std::string(field);
}

std::string metricForDmonColumn(std::string_view column) {
    struct Map {
        std::string_view column, metric;
    };
    // nvidia-smi dmon (lower case) and dcgmi dmon's short field names (upper case).
    static constexpr Map kColumns[] = {
        {"pwr", "DCGM_FI_DEV_POWER_USAGE"},       {"gtemp", "DCGM_FI_DEV_GPU_TEMP"},
        {"temp", "DCGM_FI_DEV_GPU_TEMP"},  // drivers before 418 wrote "temp" for the GPU's
        {"mtemp", "DCGM_FI_DEV_MEMORY_TEMP"},     {"sm", "DCGM_FI_DEV_GPU_UTIL"},
        {"mem", "DCGM_FI_DEV_MEM_COPY_UTIL"},     {"mclk", "DCGM_FI_DEV_MEM_CLOCK"},
        {"pclk", "DCGM_FI_DEV_SM_CLOCK"},         {"fb", "DCGM_FI_DEV_FB_USED"},
        {"sbecc", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"}, {"dbecc", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"},
        {"pci", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"},
        {"POWER", "DCGM_FI_DEV_POWER_USAGE"},     {"TMPTR", "DCGM_FI_DEV_GPU_TEMP"},
        {"MMTMP", "DCGM_FI_DEV_MEMORY_TEMP"},     {"SMCLK", "DCGM_FI_DEV_SM_CLOCK"},
        {"MMCLK", "DCGM_FI_DEV_MEM_CLOCK"},       {"GPUTL", "DCGM_FI_DEV_GPU_UTIL"},
        {"MCUTL", "DCGM_FI_DEV_MEM_COPY_UTIL"},   {"FBUSD", "DCGM_FI_DEV_FB_USED"},
        {"FBFRE", "DCGM_FI_DEV_FB_FREE"},         {"XIDER", "DCGM_FI_DEV_XID_ERRORS"},
        {"PCIRP", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"}, {"ESVTL", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"},
        {"EDVTL", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"}, {"TOTEC", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"},
        {"GRACT", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"}, {"SMACT", "DCGM_FI_PROF_SM_ACTIVE"},
        {"SMOCC", "DCGM_FI_PROF_SM_OCCUPANCY"},   {"TENSO", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"},
        {"DRAMA", "DCGM_FI_PROF_DRAM_ACTIVE"},    {"PCITX", "DCGM_FI_PROF_PCIE_TX_BYTES"},
        {"PCIRX", "DCGM_FI_PROF_PCIE_RX_BYTES"},  {"NVLTX", "DCGM_FI_PROF_NVLINK_TX_BYTES"},
        {"NVLRX", "DCGM_FI_PROF_NVLINK_RX_BYTES"}, {"CLTRN", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"},
    };
    for (const Map& m : kColumns)
        if (m.column == column) return std::string(m.metric);
    return std::string(column);
}

std::optional<double> telemetryValue(std::string_view text) {
    std::string_view t = trim(text);
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        std::uint64_t v = 0;
        const auto [p, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
        if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
        return static_cast<double>(v);
    }
    // A unit after the number ("69.32 W", "0 %", "41265 MiB").
    if (const std::size_t space = t.find(' '); space != std::string_view::npos) t = t.substr(0, space);
    double v = 0;
    const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || t.empty()) return std::nullopt;
    return v;
}

std::optional<EpochNs> epochFromDecimalSeconds(std::string_view text) {
    // One pass over the digits: this runs once per sample of a query_range export, where
    // generic searches for '.' and 'e' cost more than the rest of the sample's parsing.
    const std::string_view t = trim(text);
    std::int64_t seconds = 0, frac = 0;
    int wholeDigits = 0, fracDigits = 0;
    std::size_t i = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        if (++wholeDigits > 10) return std::nullopt;
        seconds = seconds * 10 + (t[i] - '0');
    }
    if (wholeDigits == 0) return std::nullopt;
    if (i < t.size() && t[i] == '.') {
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
            if (fracDigits < 9) {
                frac = frac * 10 + (t[i] - '0');
                ++fracDigits;
            }
    }
    if (i < t.size()) {
        if (t[i] != 'e' && t[i] != 'E') return std::nullopt;
        double s = 0;  // 1.7e9: rare, and a double is as exact as the text
        if (std::from_chars(t.data(), t.data() + t.size(), s).ec != std::errc() || !(s >= 0 && s < 9.2e9)) return std::nullopt;
        return static_cast<EpochNs>(s * 1e9);
    }
    if (seconds > 9'200'000'000) return std::nullopt;
    for (; fracDigits < 9; ++fracDigits) frac *= 10;
    return seconds * 1'000'000'000 + frac;
}

EpochNs fileModifiedTime(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return static_cast<EpochNs>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

std::string hostOfUnnamedFile(const std::string& path, const std::string& optionHost) {
    if (!optionHost.empty()) return optionHost;
    const std::string name = path.substr(path.find_last_of('/') + 1);
    return name.substr(0, name.find('.'));
}

}  // namespace faultline
