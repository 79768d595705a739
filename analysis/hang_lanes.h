#pragma once
// What the hang view draws for one origin of a run's hang: the ranks in the order a reviewer
// reads them (the culprits, then the ranks waiting for them, then everyone else), the time
// around the hang, and the flows: from each waiting rank's stuck collective to the culprit
// it waits for, at the last collective that culprit joined.
//
// Cost: O(R + C) for R ranks and C collectives of the run; the view then draws only the lanes
// on screen, so 16,384 lanes cost no more to paint than 40.
#include "model/collective_lanes.h"
#include "model/run.h"

#include <optional>
#include <vector>

namespace faultline {

enum class HangRole : std::uint8_t { Culprit, Waiting, Other };

struct HangLane {
    std::int32_t rank = 0;
    HangRole role = HangRole::Other;
    std::size_t lane = 0;  // this rank's index in CollectiveLanes::lanes; SIZE_MAX when it has no collectives
};

struct HangFlow {
    std::int32_t from = 0;                   // the waiting rank
    std::int32_t to = 0;                     // the culprit it waits for
    std::optional<std::size_t> fromRecord;   // index into Run::collectives: the collective it is stuck in
    std::optional<std::size_t> toRecord;     // the culprit's last collective in that group (or at all)
};

struct HangLanes {
    std::size_t origin = 0;    // index into HangReport::origins
    Nanos hangBegin = 0;       // on the run's clock: when the first rank enqueued the collective
    Nanos viewBegin = 0, viewEnd = 1;
    std::vector<HangLane> lanes;
    std::vector<HangFlow> flows;
    std::optional<std::int32_t> group;  // index into Run::processGroups of the origin's group
};

// The part a rank plays in the run's hang: the first origin that names it a culprit (it never
// joined the collective) or waiting (stuck in it), and when that hang began on the run's clock.
struct RankInHang {
    const HangOrigin* origin = nullptr;
    const HangFinding* finding = nullptr;
    Nanos begin = 0;
    bool culprit = false;
};
std::optional<RankInHang> rankInHang(const Run& run, std::int32_t rank);

// nullopt when the run has no hang or no such origin.
std::optional<HangLanes> buildHangLanes(const Run& run, const CollectiveLanes& collectiveLanes, std::size_t origin = 0);

}  // namespace faultline
