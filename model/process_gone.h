#pragma once
// Whether a process that left a marker (a partial file, a review being edited) has ended.

#include <sys/types.h>

#include <cerrno>
#include <csignal>

namespace faultline {

// True only when no process `pid` runs here any more: one we may not signal still runs.
inline bool processIsGone(long pid) { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH; }

}  // namespace faultline
