#pragma once
// PCI bus ids as the kernel, nvidia-smi and the exporters write them, in one form.
#include <string>
#include <string_view>

namespace faultline {

// "0000:38:00", "00000000:38:00.0", "38:00.0" -> "0000:38:00": the form GPUs are matched on.
std::string normalisePciBusId(std::string_view id);

}  // namespace faultline
