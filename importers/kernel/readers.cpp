#include "importers/kernel/readers.h"

namespace faultline {

const std::vector<FormatInfo>& kernelReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"kernel-log", "kernel log with NVIDIA Xid lines (dmesg -T, dmesg --time-format iso, /dev/kmsg, journalctl)", importKernelLog},
    };
    return kReaders;
}

}  // namespace faultline
