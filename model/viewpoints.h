#pragma once
// Saved viewpoints: a camera of the 3D view kept under a name, so that a reviewer can come
// back to (or present from) the same angle on the hardware. They belong to the run, as its
// notes do: kept in its review file (review_file.h), never in the user's settings, so they
// travel with the run and its review. Each remembers which cluster it was saved on: the
// same camera on another topology would point at nothing in particular.
#include "topology.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

// What a viewpoint needs of a cluster to mean the same there: its size and a hash of its
// zone, rack and switch names (the layout of the 3D view follows from those).
struct TopologyStamp {
    std::int64_t gpus = 0, racks = 0, switches = 0;
    std::string hash;  // 16 hex digits
    bool operator==(const TopologyStamp&) const = default;
};
TopologyStamp stampOf(const Topology& topology);

struct Viewpoint {
    std::string name;
    std::array<double, 3> position{}, focal{}, up{0, 0, 1};
    double viewAngle = 30;
    bool parallel = false;
    double parallelScale = 1;
    TopologyStamp topology;
    std::int64_t savedEpochNs = 0;
};

// Why `viewpoint` does not fit `topology` (a message naming both clusters), or nothing.
std::optional<std::string> viewpointMismatch(const Viewpoint& viewpoint, const Topology& topology);

// The viewpoint of that name (names compare exactly), or null.
const Viewpoint* findViewpoint(const std::vector<Viewpoint>& viewpoints, const std::string& name);

class ViewpointStore {
public:
    // Checks that `runPath` is a run file (throws Error otherwise); writes nothing.
    explicit ViewpointStore(const std::string& runPath);

    std::vector<Viewpoint> load() const;
    // Adds the viewpoint, or replaces the camera of the one of the same name where it stands
    // in the list. Throws Error for an empty name or when the review cannot be written.
    void save(Viewpoint viewpoint);
    // Throws Error when `from` is not there, `to` is empty or already taken.
    void rename(const std::string& from, const std::string& to);
    void remove(const std::string& name);
    const std::string& reviewPath() const { return m_reviewPath; }

private:
    // The viewpoints as they are on disk now, changed by `change` under the review's lock.
    void update(const std::function<void(std::vector<Viewpoint>&)>& change);
    std::string m_runPath;
    std::string m_reviewPath;
};

// The viewpoints of a run, in the order they were saved: its review file's when there is
// one, else those saved into the run file; none when neither has any. Reads only.
std::vector<Viewpoint> readViewpoints(const std::string& runPath);

// Writes `viewpoints` as a viewpoints table into the database at `path` (replacing one).
void writeViewpointsTable(const std::string& path, const std::vector<Viewpoint>& viewpoints);

}  // namespace faultline
