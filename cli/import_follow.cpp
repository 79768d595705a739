#include "cli/import_follow.h"

#include "cli/commands.h"
#include "importers/folder_follower.h"
#include "model/error.h"
#include "model/format.h"
#include "remote/prometheus_follow.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace faultline::cli {

namespace {

namespace fs = std::filesystem;

volatile std::sig_atomic_t g_stopFollowing = 0;
// Ends a pull under way at once (lock-free, so safe to set in the handler).
std::atomic<bool> g_cancelPull{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void stopFollowing(int) {
    g_stopFollowing = 1;
    g_cancelPull = true;
}

// SIGINT and SIGTERM end following at the next wake; the wait is interrupted (no SA_RESTART).
void catchStopSignals() {
    struct sigaction action {};
    action.sa_handler = stopFollowing;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

// Wakes when a followed folder changes (inotify) or the poll interval has passed: the
// interval is what finds changes inotify does not tell (network file systems).
class ChangeWait {
public:
    // The inputs are watched from the start (a file named, through its folder), so that
    // a change is told even while no look has listed the folders yet.
    explicit ChangeWait(const std::vector<std::string>& inputs) : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
        std::vector<std::string> folders;
        for (const std::string& input : inputs) {
            std::error_code ec;
            const fs::path parent = fs::path(input).parent_path();
            folders.push_back(fs::is_directory(input, ec) ? input : parent.empty() ? std::string(".") : parent.string());
        }
        watch(folders);
    }
    ~ChangeWait() {
        if (m_fd >= 0) ::close(m_fd);
    }
    ChangeWait(const ChangeWait&) = delete;
    ChangeWait& operator=(const ChangeWait&) = delete;

    // The folders a look's listing walked (FolderFollower::Look::folders), those new since
    // the last call watched: the folder is walked once a look, by the listing only.
    void watch(const std::vector<std::string>& folders) {
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

    void wait(std::int64_t pollNs) {
        pollfd p{m_fd, POLLIN, 0};
        const int timeoutMs = static_cast<int>(std::min<std::int64_t>(pollNs / 1'000'000, 60'000));
        if (m_fd < 0) {
            ::poll(nullptr, 0, timeoutMs);
            return;
        }
        if (::poll(&p, 1, timeoutMs) > 0) {
            alignas(inotify_event) char events[16384];
            for (ssize_t n; (n = ::read(m_fd, events, sizeof events)) > 0;)
                for (ssize_t at = 0; at < n;) {
                    const auto* e = reinterpret_cast<const inotify_event*>(events + at);
                    // A folder removed (or moved away) is no longer watched: one made again
                    // under its name is watched anew when a look lists it.
                    if (e->mask & IN_IGNORED)
                        if (auto it = m_byWatch.find(e->wd); it != m_byWatch.end()) {
                            m_watched.erase(it->second);
                            m_byWatch.erase(it);
                        }
                    at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
                }
        }
    }

private:
    int m_fd;
    std::set<std::string> m_watched;
    std::map<int, std::string> m_byWatch;  // watch descriptor -> its folder
};

std::string clockNow() {
    const std::time_t t = std::time(nullptr);
    char text[16];
    std::tm utc{};
    gmtime_r(&t, &utc);
    std::strftime(text, sizeof text, "%H:%M:%S", &utc);
    return text;
}

void tell(const FolderFollower::Look& look, const std::string& output) {
    for (const Incident& incident : look.newIncidents)
        std::printf("new incident at %s: %s\n", formatWallTime(look.info.startEpochNs, incident.begin).c_str(), incident.headline.c_str());
    if (look.written)
        std::printf("%s UTC: %s updated (%zu %s read, %s of evidence)\n", clockNow().c_str(), output.c_str(), look.filesRead,
                    look.filesRead == 1 ? "file" : "files", formatDuration(look.info.duration).c_str());
    std::fflush(stdout);
}

// A failed pull is told once per outage, and its end once: the look goes on either way.
void tellPull(const FolderFollower::Look& look, const FollowedPull& pull, int& succeeded, bool& outage, bool quiet) {
    if (!look.sourceProblem.empty()) {
        // The client's messages begin with the URL, which this one names already.
        std::string problem = look.sourceProblem;
        if (problem.starts_with(pull.url() + ": ")) problem.erase(0, pull.url().size() + 2);
        if (!outage && !quiet)
            std::fprintf(stderr, "faultline-cli import: pulling from %s failed: %s (asked again at the next look; what was pulled is kept)\n",
                         pull.url().c_str(), problem.c_str());
        outage = true;
    } else if (pull.succeeded() > succeeded && outage) {
        if (!quiet) std::fprintf(stderr, "faultline-cli import: pulling from %s again\n", pull.url().c_str());
        outage = false;
    }
    succeeded = pull.succeeded();
    std::fflush(stderr);
}

}  // namespace

int followImport(const FollowSettings& settings, const ImportOptions& options) {
    FolderFollower follower(settings.inputs, settings.output, options);
    std::optional<FollowedPull> pull;
    if (settings.pull) {
        pull.emplace(*settings.pull, options, settings.pollNs, &g_cancelPull);
        follower.setSource(&*pull);
    }
    int pullsSucceeded = 0;
    bool pullOutage = false;
    catchStopSignals();
    ChangeWait changes(settings.inputs);
    if (!settings.quiet) {
        std::printf("following %s into %s (Ctrl+C ends it)\n", settings.inputs.front().c_str(), settings.output.c_str());
        std::fflush(stdout);
    }
    std::string lastProblem;
    while (!g_stopFollowing) {
        try {
            const FolderFollower::Look look = follower.look();
            changes.watch(look.folders);
            if (pull) tellPull(look, *pull, pullsSucceeded, pullOutage, settings.quiet);
            if (!settings.quiet) tell(look, settings.output);
            lastProblem.clear();
        } catch (const Error& e) {
            // The job is still writing: what cannot be built now may be at the next change.
            if (e.what() != lastProblem && !settings.quiet) std::fprintf(stderr, "faultline-cli import: %s (following goes on)\n", e.what());
            lastProblem = e.what();
        }
        if (!g_stopFollowing) changes.wait(settings.pollNs);
    }
    const FolderFollower::Look last = follower.look(true);
    if (settings.quiet) return kExitOk;
    tell(last, settings.output);
    std::printf("following ended: %s is the import of the folder as it is now\n", settings.output.c_str());
    return kExitOk;
}

}  // namespace faultline::cli
