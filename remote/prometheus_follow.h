#pragma once
// The metrics pulled while a folder is followed (`faultline-cli import --follow DIR
// --prometheus URL`): each look pulls from the last instant pulled up to now, at most once a
// step, and adds it to what was pulled before; the run keeps where it came from as one
// PulledSource spanning every pull. A failed pull keeps what was pulled and asks the same span
// again at the next look. The run is written anew only when a pull brought samples.
#include "importers/folder_follower.h"
#include "remote/prometheus_pull.h"

#include <atomic>
#include <functional>
#include <optional>

namespace faultline {

// Where the first pull starts when neither --from nor any file read gives a time.
inline constexpr Nanos kFollowLookback = kHour;

class FollowedPull : public FollowedSource {
public:
    // options.from: the first pull's start (0: the files' first event, else now minus
    // kFollowLookback); options.to is not used (a followed pull goes up to now). Pulls at most
    // once an `interval` (the follower's poll). `cancel` (may be null) ends a pull under way
    // and skips the next ones.
    FollowedPull(PrometheusPullOptions options, ImportOptions importOptions, Nanos interval, const std::atomic<bool>* cancel = nullptr,
                 std::function<EpochNs()> clock = {});

    bool refresh(const std::vector<const ShardedFile*>& files, bool last) override;
    std::vector<const ShardedFile*> sources() const override;
    std::vector<PulledSource> pulls() const override;

    const std::string& url() const { return m_options.server.url; }
    // The pulls that got an answer (with samples or none), so far.
    int succeeded() const { return m_pullCount; }

private:
    PrometheusPullOptions m_options;
    ImportOptions m_importOptions;
    const std::atomic<bool>* m_cancel;
    Nanos m_interval;
    std::function<EpochNs()> m_clock;
    EpochNs m_next = 0;      // the first instant not pulled yet; 0 before the first pull
    EpochNs m_pulledTo = 0;  // the end of the last pull
    int m_pullCount = 0;
    std::optional<ShardedFile> m_source;  // every pull's telemetry and report, merged
    PulledSource m_pulled;
};

}  // namespace faultline
