#include "importers/fabric/readers.h"

namespace faultline {

const std::vector<FormatInfo>& fabricReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"ibnetdiscover", "InfiniBand ibnetdiscover output", importIbnetdiscover},
    };
    return kReaders;
}

}  // namespace faultline
