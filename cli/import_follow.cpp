#include "cli/import_follow.h"

#include "cli/commands.h"
#include "cli/folder_changes.h"
#include "importers/folder_follower.h"
#include "model/error.h"
#include "model/format.h"
#include "remote/prometheus_follow.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <ctime>

namespace faultline::cli {

namespace {

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
    FolderChanges changes(settings.inputs);
    FollowSettle settle(settings.settleNs, settings.maxDelayNs);
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
        waitForLook(changes, settle, settings.pollNs, g_stopFollowing);
    }
    const FolderFollower::Look last = follower.look(true);
    if (settings.quiet) return kExitOk;
    tell(last, settings.output);
    std::printf("following ended: %s is the import of the folder as it is now\n", settings.output.c_str());
    return kExitOk;
}

}  // namespace faultline::cli
