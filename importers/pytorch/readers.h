#pragma once
// PyTorch's own files: profiler (Kineto) traces and NCCL Flight Recorder dumps.
// The readers of this family, listed for importers/formats.cpp (docs/formats.md says more).
#include "importers/events/reader.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& pytorchReaders();

void importKineto(const std::string& path, ImportContext& ctx);
void importFlightRecorder(const std::string& path, ImportContext& ctx);
void importFlightRecorderJson(const std::string& path, ImportContext& ctx);
// The same from the file's bytes, already read whole.
void importFlightRecorderBytes(const std::string& path, std::string_view data, ImportContext& ctx);
void importFlightRecorderJsonBytes(const std::string& path, std::string_view data, ImportContext& ctx);

}  // namespace faultline
