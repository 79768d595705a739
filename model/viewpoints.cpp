#include "viewpoints.h"

#include "error.h"
#include "review_file.h"
#include "sqlite_db.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace faultline {

namespace {

constexpr const char* kViewpointsTable =
    "CREATE TABLE IF NOT EXISTS viewpoints(position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
    "eye_x REAL NOT NULL, eye_y REAL NOT NULL, eye_z REAL NOT NULL, focal_x REAL NOT NULL, focal_y REAL NOT NULL, "
    "focal_z REAL NOT NULL, up_x REAL NOT NULL, up_y REAL NOT NULL, up_z REAL NOT NULL, view_angle REAL NOT NULL, "
    "parallel INTEGER NOT NULL, parallel_scale REAL NOT NULL, topology_gpus INTEGER NOT NULL, topology_racks INTEGER NOT NULL, "
    "topology_switches INTEGER NOT NULL, topology_hash TEXT NOT NULL, saved_epoch_ns INTEGER NOT NULL)";

std::string checkedName(const std::string& name) {
    const std::string t = trimmedText(name);
    if (t.empty()) throw Error("a viewpoint needs a name");
    return t;
}

std::vector<Viewpoint> readTable(const std::string& path) {
    SqliteDb db(path, SqliteDb::Mode::ReadOnly);
    SqliteStatement exists(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'viewpoints'");
    if (!exists.next() || exists.int64(0) == 0) return {};
    std::vector<Viewpoint> out;
    for (SqliteStatement s(db, "SELECT name, eye_x, eye_y, eye_z, focal_x, focal_y, focal_z, up_x, up_y, up_z, view_angle, parallel, "
                               "parallel_scale, topology_gpus, topology_racks, topology_switches, topology_hash, saved_epoch_ns "
                               "FROM viewpoints ORDER BY position");
         s.next();) {
        Viewpoint v;
        v.name = s.text(0);
        for (int k = 0; k < 3; ++k) {
            v.position[static_cast<std::size_t>(k)] = s.real(1 + k);
            v.focal[static_cast<std::size_t>(k)] = s.real(4 + k);
            v.up[static_cast<std::size_t>(k)] = s.real(7 + k);
        }
        v.viewAngle = s.real(10);
        v.parallel = s.int64(11) != 0;
        v.parallelScale = s.real(12);
        v.topology = {s.int64(13), s.int64(14), s.int64(15), s.text(16)};
        v.savedEpochNs = s.int64(17);
        out.push_back(std::move(v));
    }
    return out;
}

std::string describe(const TopologyStamp& t) {
    return std::to_string(t.gpus) + " GPUs in " + std::to_string(t.racks) + " racks with " + std::to_string(t.switches) + " switches";
}

}  // namespace

TopologyStamp stampOf(const Topology& topology) {
    // FNV-1a over the names the 3D layout is built from, each ended by a zero byte.
    std::uint64_t h = 14695981039346656037ull;
    auto add = [&h](const std::string& text) {
        for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
        h = h * 1099511628211ull;
    };
    for (const Zone& z : topology.zones) add(z.name);
    for (const Rack& r : topology.racks) add(r.name);
    for (const Switch& s : topology.switches) add(s.name);
    add(std::to_string(topology.hosts.size()) + "/" + std::to_string(topology.gpus.size()));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return {static_cast<std::int64_t>(topology.gpus.size()), static_cast<std::int64_t>(topology.racks.size()),
            static_cast<std::int64_t>(topology.switches.size()), hex};
}

std::optional<std::string> viewpointMismatch(const Viewpoint& viewpoint, const Topology& topology) {
    const TopologyStamp here = stampOf(topology);
    if (viewpoint.topology == here) return std::nullopt;
    if (viewpoint.topology.gpus == here.gpus && viewpoint.topology.racks == here.racks && viewpoint.topology.switches == here.switches)
        return "viewpoint \"" + viewpoint.name + "\" was saved on another cluster of the same size (" + describe(here) +
               ", but other zone, rack or switch names): it does not fit this run";
    return "viewpoint \"" + viewpoint.name + "\" was saved on a cluster of " + describe(viewpoint.topology) + "; this run's has " +
           describe(here) + ": it does not fit this run";
}

const Viewpoint* findViewpoint(const std::vector<Viewpoint>& viewpoints, const std::string& name) {
    const auto it = std::find_if(viewpoints.begin(), viewpoints.end(), [&](const Viewpoint& v) { return v.name == name; });
    return it == viewpoints.end() ? nullptr : &*it;
}

ViewpointStore::ViewpointStore(const std::string& runPath) : m_runPath(runPath), m_reviewPath(reviewFilePath(runPath)) {
    requireRunFile(runPath);
}

std::vector<Viewpoint> ViewpointStore::load() const { return readViewpoints(m_runPath); }

void ViewpointStore::save(Viewpoint viewpoint) {
    viewpoint.name = checkedName(viewpoint.name);
    viewpoint.savedEpochNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    update([&](std::vector<Viewpoint>& all) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const Viewpoint& v) { return v.name == viewpoint.name; });
        if (it != all.end()) *it = std::move(viewpoint);
        else all.push_back(std::move(viewpoint));
    });
}

void ViewpointStore::rename(const std::string& from, const std::string& to) {
    const std::string name = checkedName(to);
    update([&](std::vector<Viewpoint>& all) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const Viewpoint& v) { return v.name == from; });
        if (it == all.end()) throw Error("there is no viewpoint named \"" + from + "\"");
        if (name != from && findViewpoint(all, name)) throw Error("there is already a viewpoint named \"" + name + "\"");
        it->name = name;
    });
}

void ViewpointStore::remove(const std::string& name) {
    update([&](std::vector<Viewpoint>& all) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const Viewpoint& v) { return v.name == name; });
        if (it == all.end()) throw Error("there is no viewpoint named \"" + name + "\"");
        all.erase(it);
    });
}

void ViewpointStore::update(const std::function<void(std::vector<Viewpoint>&)>& change) {
    // The notes stay as the last writer left them (model/review_file.h: updateReview).
    updateReview(m_runPath, m_reviewPath, [&](Review& review) { change(review.viewpoints); });
}

std::vector<Viewpoint> readViewpoints(const std::string& runPath) { return readTable(reviewSource(runPath)); }

void writeViewpointsTable(const std::string& path, const std::vector<Viewpoint>& viewpoints) {
    SqliteDb db(path, SqliteDb::Mode::ReadWrite);
    db.exec("BEGIN");
    db.exec(kViewpointsTable);
    db.exec("DELETE FROM viewpoints");
    SqliteStatement s(db, "INSERT INTO viewpoints VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::int64_t position = 0;
    for (const Viewpoint& v : viewpoints) {
        s.bind(1, position++).bind(2, std::string_view(v.name));
        for (int k = 0; k < 3; ++k) {
            s.bind(3 + k, v.position[static_cast<std::size_t>(k)]);
            s.bind(6 + k, v.focal[static_cast<std::size_t>(k)]);
            s.bind(9 + k, v.up[static_cast<std::size_t>(k)]);
        }
        s.bind(12, v.viewAngle).bind(13, std::int64_t{v.parallel ? 1 : 0}).bind(14, v.parallelScale);
        s.bind(15, v.topology.gpus).bind(16, v.topology.racks).bind(17, v.topology.switches);
        s.bind(18, std::string_view(v.topology.hash)).bind(19, v.savedEpochNs).execute();
    }
    db.exec("COMMIT");
}

}  // namespace faultline
