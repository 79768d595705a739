#pragma once
// What the telemetry formats share: which GPU a series' labels name, the one name a metric
// goes by whatever tool wrote it, and the moment a file without timestamps was written.
#include "importers/events/telemetry_accumulator.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The value of label `key`; null when the series has no such label or it is empty.
const std::string* label(const Labels& labels, std::string_view key);

// The GPU a Prometheus series names: gpu / index, UUID / uuid, pci_bus_id, and its host from
// Hostname / hostname / node / exported_instance / instance (its port dropped). nullopt for
// a series of no GPU (a node's CPU energy, a pod's counters).
std::optional<TelemetryGpu> gpuFromLabels(const Labels& labels);
// The host a series names, by the same labels; empty when none does. A value holding a
// newline or control character is no host name and is passed over; a scrape target's port
// is dropped ("10.0.0.5:9400"), a host name label is kept whole ("Hostname=a:b").
std::string hostFromLabels(const Labels& labels);
// Why a series' host label was passed over ("label Hostname=\"a\\nb\" holds a newline ..."),
// for the import report; nullopt when none was.
std::optional<std::string> refusedHostLabel(const Labels& labels);

// The metric a series is stored under: its name, and the labels that make it another
// quantity of the same GPU (Kepler's mode="idle" and mode="dynamic" energy).
std::string metricFromLabels(std::string_view name, const Labels& labels);

// DCGM's name for a column of nvidia-smi --query-gpu ("power.draw" -> DCGM_FI_DEV_POWER_USAGE),
// nvidia-smi dmon ("pwr") or dcgmi dmon ("POWER"); the column's own name when DCGM has none.
std::string metricForQueryGpuField(std::string_view field);
std::string metricForDmonColumn(std::string_view column);

// A value as the tools print it: "69.32 W", "0 %", "41265 MiB", "0x0000000000000004", "1980";
// nullopt for "[N/A]", "[Not Supported]", "-" and anything else that is not a number.
std::optional<double> telemetryValue(std::string_view text);

// "1771529464.895" seconds as exact nanoseconds (a double would be 64 ns off); nullopt for
// anything else, or a time before 1970 or after 2262.
std::optional<EpochNs> epochFromDecimalSeconds(std::string_view text);

// When the file was last written (a scrape saved by curl, a dmon log without its time
// columns): the time of its only, or last, sample.
EpochNs fileModifiedTime(const std::string& path);

// The host of a file that names none (nvidia-smi's CSV, dmon): --host, else the file name up
// to its first '.' ("node07.smi.csv" -> node07), as kernel logs without a host are named.
std::string hostOfUnnamedFile(const std::string& path, const std::string& optionHost);

}  // namespace faultline
