#include "importers/native/readers.h"

namespace faultline {

const std::vector<FormatInfo>& nativeReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"faultline-topology", "Faultline topology JSON", importFaultlineTopology},
        {"faultline-events", "Faultline events: JSON Lines or CSV (failure, collective, step, checkpoint, placement)", importNativeEvents},
    };
    return kReaders;
}

}  // namespace faultline
