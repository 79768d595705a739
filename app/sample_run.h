#pragma once
// The built-in sample run: the llama3-405b preset from a fixed seed. The build writes it
// beside the binaries (share/faultline/sample.faultline); where it is missing, the app
// simulates it once into the user's cache folder.
#include <string>

namespace faultline {

inline constexpr const char* kSamplePreset = "llama3-405b";
inline constexpr unsigned kSampleSeed = 1;

// The sample run's path, simulating it first if no copy exists yet. Throws Error.
std::string ensureSampleRun();

}  // namespace faultline
