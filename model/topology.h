#pragma once
// The cluster a run trained on: zones (pods), rows of racks, hosts, GPUs, NICs and up to
// three switch tiers (a Meta-style RoCE fabric's RTSW in each rack, CTSW per zone and ATSW
// joining zones; an InfiniBand fat tree's leaves, spines and cores), with the links between
// them. Everything refers to everything else by index into flat vectors, so a 100,000-GPU
// cluster is a few flat arrays.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// Whether `i` indexes a table of `n` rows (a part, a rack, a zone read from a file or a link).
inline bool inRange(std::int32_t i, std::size_t n) { return i >= 0 && static_cast<std::size_t>(i) < n; }

// The switch's level above the NICs: 1, 2, 3. RoCE calls them RTSW, CTSW, ATSW; a fat tree
// leaf, spine, core (switchTierName).
enum class SwitchTier : std::uint8_t { Rack, Cluster, Aggregation };

// How the switches are cabled: what the fabric is called and how it is drawn.
enum class FabricKind : std::uint8_t {
    RoceClos,           // Meta's RoCE: RTSW per rack, CTSW per AI zone, ATSW between zones
    InfinibandFatTree,  // leaves, spines and, where present, cores; leaves may serve one rail each
    GenericTree,        // any other tree of switches
};

// One cluster of a fleet: its own fabric, standing in a hall of a building. A topology with
// no clusters listed is one cluster of `Topology::fabric` (every run before the fleet preset).
struct Cluster {
    std::string name;      // "rsc-roce-24k"
    std::string hall;      // "Hall 1"
    std::string building;  // "Building A"
    FabricKind fabric = FabricKind::RoceClos;
};

struct Zone {
    std::string name;
    std::int32_t cluster = 0;  // index into Topology::clusters (0 when there are none)
};

struct Rack {
    std::string name;
    std::int32_t zone = 0;
    std::int32_t row = 0;       // row within the zone
    std::int32_t position = 0;  // place within the row
};

struct Host {
    std::string name;
    std::int32_t rack = 0;
    std::int32_t firstGpu = 0;
    std::int32_t gpuCount = 0;
    std::int32_t firstNic = 0;
    std::int32_t nicCount = 0;
    // No file numbered this host's GPUs (a log named the host alone): gpuCount is the run's
    // usual count, assumed, and every view says so.
    bool gpuCountAssumed = false;
};

struct Gpu {
    std::int32_t host = 0;
    std::int32_t index = 0;  // index within the host (CUDA device order)
    std::string pciBusId;    // e.g. "0000:18:00.0"
};

struct Nic {
    std::int32_t host = 0;
    std::int32_t index = 0;  // NIC i serves GPU i of its host (one rail per GPU)
};

struct Switch {
    std::string name;
    SwitchTier tier = SwitchTier::Rack;
    std::int32_t zone = -1;  // -1 for aggregation switches, which join zones
    std::int32_t rack = -1;  // the rack of a rack switch, else -1
    std::int32_t rail = -1;  // the NIC index a rail-optimised leaf serves on every host, else -1
    std::int32_t cluster = 0;  // the cluster it belongs to (also for the zone-less top tier)
};

enum class NodeKind : std::uint8_t { Nic, Switch };

struct LinkEnd {
    NodeKind kind = NodeKind::Nic;
    std::int32_t index = 0;
    bool operator==(const LinkEnd&) const = default;
};

// A cable. `lower` is the end nearer the GPUs (a NIC, or a switch of a lower tier).
struct Link {
    LinkEnd lower;
    LinkEnd upper;
};

struct Topology {
    // The fabric when the topology is one cluster; in a fleet, the first cluster's (each
    // cluster's own is Cluster::fabric: use fabricOfZone / fabricOfSwitch).
    FabricKind fabric = FabricKind::RoceClos;
    std::vector<Cluster> clusters;  // empty: one cluster of `fabric`
    std::vector<Zone> zones;
    std::vector<Rack> racks;
    std::vector<Host> hosts;
    std::vector<Gpu> gpus;
    std::vector<Nic> nics;
    std::vector<Switch> switches;
    std::vector<Link> links;

    std::string gpuName(std::int32_t gpu) const;  // "<host>-gpu<index>"
    std::string nicName(std::int32_t nic) const;  // "<host>-nic<index>"
    std::string linkName(std::int32_t link) const;
    std::optional<std::int32_t> findHost(std::string_view name) const;
    std::optional<std::int32_t> findSwitch(std::string_view name) const;
    std::int32_t gpuOfNic(std::int32_t nic) const;  // -1 if its host has no GPU of that index

    std::vector<std::int32_t> gpusOfHost(std::int32_t host) const;
    // Every GPU below this switch or link in the fabric tree: the ranks whose traffic a
    // failure of it breaks, and so what the failure takes out of the job.
    std::vector<std::int32_t> gpusBelowSwitch(std::int32_t sw) const;
    std::vector<std::int32_t> gpusBelowLink(std::int32_t link) const;

    std::size_t switchCount(SwitchTier tier) const;
    std::size_t clusterCount() const { return clusters.empty() ? 1 : clusters.size(); }
    FabricKind fabricOfCluster(std::int32_t cluster) const;
    FabricKind fabricOfZone(std::int32_t zone) const;
    FabricKind fabricOfSwitch(std::int32_t sw) const;
    std::int32_t clusterOfHost(std::int32_t host) const;
    // Throws Error naming the first inconsistency (an index out of range, a GPU outside
    // its host's range); used when a topology comes from a file.
    void validate() const;
};

// The shape of a regular Meta-style fabric, as the simulator and tests build it.
struct FabricShape {
    int gpus = 16'384;
    int gpusPerHost = 8;
    int hostsPerRack = 2;
    int racksPerRow = 16;
    int racksPerZone = 128;  // 2,048 GPUs per AI zone
    int ctswPerZone = 8;     // every RTSW has one uplink to each CTSW of its zone
    int atswCount = 8;       // every CTSW has one uplink to each ATSW
};

// "rtsw" and 3 at width 4 -> "rtsw0003": how the fabric builders name their parts.
std::string numberedName(const char* prefix, int value, int width);

// Builds the fabric for `shape`; GPU count is rounded up to whole hosts.
Topology buildFabric(const FabricShape& shape);

const char* switchTierName(SwitchTier tier);  // "RTSW", "CTSW", "ATSW"
// The tier as this kind of fabric names it: "RTSW" or "leaf", "CTSW" or "spine", "ATSW" or "core".
const char* switchTierName(SwitchTier tier, FabricKind fabric);
// "RoCE two-stage Clos", "InfiniBand fat tree", "switch tree".
const char* fabricKindName(FabricKind fabric);

}  // namespace faultline
