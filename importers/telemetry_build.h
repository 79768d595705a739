#pragma once
// Places imported telemetry on the run's GPUs: each series is matched to its GPU by host and
// PCI bus id, host and index, or UUID (through another series that names the UUID with its
// host), series of one GPU and metric from several files are merged, and the summaries
// become the run's levels.
#include "importers/events/imported_events.h"

#include "model/telemetry.h"

#include <functional>
#include <string>
#include <vector>

namespace faultline {

// `gpuOf` finds the run's GPU for a locator (-1 when the topology lacks it).
Telemetry buildTelemetry(const ImportedTelemetry& imported, const std::function<std::int32_t(const GpuLocator&)>& gpuOf, EpochNs base,
                         std::vector<std::string>& warnings);

// Each GPU the telemetry names (ImportedTelemetry::gpu), as a locator; a UUID resolved
// through another GPU entry that names it with its host.
std::vector<GpuLocator> telemetryLocators(const ImportedTelemetry& imported);

}  // namespace faultline
