#pragma once
// One kernel log line in any of the spellings tools write it in, split into its time, the
// host (when the line names one) and the message.
#include "importers/events/imported_events.h"

#include <optional>
#include <string_view>

namespace faultline {

enum class KernelLogForm : std::uint8_t {
    DmesgIso,      // dmesg --time-format iso [--decode]: "kern  :warn  : 2025-01-21T04:41:44,283302+00:00 msg"
    DmesgCtime,    // dmesg -T: "[Tue Jan 21 04:41:44 2025] msg"
    DmesgBoot,     // plain dmesg: "[  227.996636] msg" (seconds since boot)
    Kmsg,          // /dev/kmsg: "6,3973,227996636,-;msg" (microseconds since boot)
    Journal,       // journalctl -k / syslog: "Jan 21 04:41:44 host kernel: msg"
    JournalIso,    // journalctl -o short-iso: "2025-01-21T04:41:44+0000 host kernel: msg"
    // No time at all (dmesg -t, a pasted excerpt): "kernel: msg", "host kernel: msg", or a
    // driver's own "NVRM: ..." line. `time` is 0.
    Undated,
};

struct KernelLogLine {
    KernelLogForm form = KernelLogForm::DmesgIso;
    EpochNs time = 0;
    bool sinceBoot = false;
    std::string_view host;  // journal and undated forms only
    std::string_view message;
};

// `year` fills in the year syslog-style dates leave out.
std::optional<KernelLogLine> parseKernelLogLine(std::string_view line, int year);

// An NVIDIA Xid report inside a kernel message:
// "NVRM: Xid (PCI:0000:38:00): 13, pid='<unknown>', name=<unknown>, Graphics SM ...".
struct XidMessage {
    std::string pciBusId;  // normalised: lower case, domain included, no function
    std::int32_t xid = 0;
    std::string_view text;  // what follows the code
};
std::optional<XidMessage> parseXidMessage(std::string_view message);

}  // namespace faultline
