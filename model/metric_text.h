#pragma once
// What a person reads for a metric's readings, alike in the app's menus, legend and inspector
// and in faultline-cli: "Power (W)", "700 W".
#include <cstdint>
#include <string>
#include <string_view>

namespace faultline {

// The name menus, legends and the CLI give a metric: "Power (W)", "SM clock (MHz)".
std::string metricTitle(std::string_view name);
// The run's metric a person names, by DCGM's name (DCGM_FI_DEV_POWER_USAGE) or the app's
// ("Power", "SM clock"), in any case; throws Error listing the run's metrics when none is.
struct Telemetry;
std::int32_t metricNamed(const Telemetry& telemetry, const std::string& text);
// "700 W", "1,980 MHz", "0.61 ratio", "no data" for NaN: a reading as every face prints it.
std::string formatMetricValue(double value, std::string_view unit);

}  // namespace faultline
