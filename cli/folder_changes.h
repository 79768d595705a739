#pragma once
// What `import --follow` waits on between looks: inotify on the followed folders, the poll
// interval that finds changes inotify does not tell (network file systems), and the settle
// (cli/follow_settle.h) that makes a burst of changes one look.
#include "cli/follow_settle.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace faultline::cli {

class FolderChanges {
public:
    // The inputs are watched from the start (a file named, through its folder), so that
    // a change is told even while no look has listed the folders yet.
    explicit FolderChanges(const std::vector<std::string>& inputs);
    ~FolderChanges();
    FolderChanges(const FolderChanges&) = delete;
    FolderChanges& operator=(const FolderChanges&) = delete;

    // The folders a look's listing walked (FolderFollower::Look::folders), those new since
    // the last call watched: the folder is walked once a look, by the listing only.
    void watch(const std::vector<std::string>& folders);
    // Waits up to `timeoutNs` for a change; whether one was told (false at the timeout or
    // when a signal interrupted the wait).
    bool wait(std::int64_t timeoutNs);

private:
    int m_fd;
    std::set<std::string> m_watched;
    std::map<int, std::string> m_byWatch;  // watch descriptor -> its folder
};

// Returns when the next look is due: at the poll interval where nothing changed, else once
// `settle` says so after the changes told; early when `stop` is set (a signal interrupts the
// wait). The steady clock drives `settle`.
void waitForLook(FolderChanges& changes, FollowSettle& settle, std::int64_t pollNs, const volatile std::sig_atomic_t& stop);

}  // namespace faultline::cli
