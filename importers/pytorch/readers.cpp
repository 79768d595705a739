#include "importers/pytorch/readers.h"

namespace faultline {

const std::vector<FormatInfo>& pytorchReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"kineto", "PyTorch profiler (Kineto) Chrome-trace JSON, plain or gzipped", importKineto},
        {"flight-recorder", "PyTorch NCCL Flight Recorder dump (pickle, read without running any of it)", importFlightRecorder, importFlightRecorderBytes},
        {"flight-recorder-json", "PyTorch NCCL Flight Recorder dump, JSON variant", importFlightRecorderJson, importFlightRecorderJsonBytes},
    };
    return kReaders;
}

}  // namespace faultline
