#include "cli/folder_changes.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace faultline::cli {

namespace fs = std::filesystem;

FolderChanges::FolderChanges(const std::vector<std::string>& inputs) : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    std::vector<std::string> folders;
    for (const std::string& input : inputs) {
        std::error_code ec;
        const fs::path parent = fs::path(input).parent_path();
        folders.push_back(fs::is_directory(input, ec) ? input : parent.empty() ? std::string(".") : parent.string());
    }
    watch(folders);
}

FolderChanges::~FolderChanges() {
    if (m_fd >= 0) ::close(m_fd);
}

void FolderChanges::watch(const std::vector<std::string>& folders) {
    if (m_fd < 0) return;
    constexpr std::uint32_t kChanges = IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB;
    for (const std::string& folder : folders) {
        if (m_watched.count(folder)) continue;
        const int wd = inotify_add_watch(m_fd, folder.c_str(), kChanges);
        if (wd < 0) continue;
        m_watched.insert(folder);
        m_byWatch[wd] = folder;
    }
}

bool FolderChanges::wait(std::int64_t timeoutNs) {
    // Rounded up: a wait of less than a millisecond still waits, rather than spinning.
    const int timeoutMs = static_cast<int>(std::clamp<std::int64_t>((timeoutNs + 999'999) / 1'000'000, 0, 60'000));
    if (m_fd < 0) {
        ::poll(nullptr, 0, timeoutMs);
        return false;
    }
    pollfd p{m_fd, POLLIN, 0};
    if (::poll(&p, 1, timeoutMs) <= 0) return false;
    bool told = false;
    alignas(inotify_event) char events[16384];
    for (ssize_t n; (n = ::read(m_fd, events, sizeof events)) > 0;)
        for (ssize_t at = 0; at < n;) {
            const auto* e = reinterpret_cast<const inotify_event*>(events + at);
            told = true;
            // A folder removed (or moved away) is no longer watched: one made again
            // under its name is watched anew when a look lists it.
            if (e->mask & IN_IGNORED)
                if (auto it = m_byWatch.find(e->wd); it != m_byWatch.end()) {
                    m_watched.erase(it->second);
                    m_byWatch.erase(it);
                }
            at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
        }
    return told;
}

void waitForLook(FolderChanges& changes, FollowSettle& settle, std::int64_t pollNs, const volatile std::sig_atomic_t& stop) {
    const auto now = [] {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
    settle.looked();
    if (stop || !changes.wait(pollNs)) return;  // the poll interval passed: look anyway (NFS)
    settle.changed(now());
    // The folder keeps changing while a job writes: wait for it to be quiet, or the longest delay.
    for (std::optional<std::int64_t> due; !stop && (due = settle.dueIn(now())) && *due > 0;)
        if (changes.wait(*due)) settle.changed(now());
}

}  // namespace faultline::cli
