#pragma once
// What one part of the fabric takes out when it fails: the GPUs left with no path up the
// fabric, the cables that carry nothing any more, and the way up from the part to the top
// tier (what a reviewer traces to see why a rack went dark, or a switch did not matter).
// Works for a failed part and, the same way, as a "what would this take out" preview.
#include "analysis/incidents.h"
#include "model/run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

struct BlastRadius {
    ComponentRef part;
    std::vector<std::int32_t> gpus;      // cut off: no path up the fabric left
    std::vector<std::int32_t> hosts;     // every GPU of the host cut off
    std::vector<std::int32_t> racks;     // every GPU of the rack cut off
    std::vector<std::int32_t> links;     // cables that carry no traffic any more (the part's own too)
    std::vector<std::int32_t> pathUp;    // cables from the part up to the top tier, lowest first
    std::vector<std::int32_t> switchesUp;  // the switches on those paths, lowest tier first
    std::size_t gpusBelow = 0;  // GPUs whose traffic a switch or cable carries: a job using them stalls until rerouted
    // A switch above the leaves takes its share of the uplinks of the switches below it: in a
    // fat tree a spine's share of the leaf-spine cables is the bisection bandwidth it takes,
    // though every leaf keeps its other spines (cables counted, as they run at one speed).
    std::size_t lowerSwitches = 0;    // switches cabled up to the part
    bool lowerIsWholeTier = false;    // ... and they are every switch of their tier
    std::size_t uplinks = 0;          // their cables up to the part's tier
    std::size_t uplinksLost = 0;      // of those, the part's
    std::size_t peers = 0;            // switches of the part's tier they reach, the part included
    std::int32_t rail = -1;           // a rail leaf's rail: NIC `rail` of each host below it
    std::size_t railHosts = 0;        // hosts whose NIC `rail` it serves
    bool empty() const { return gpus.empty() && links.empty(); }
};

// The part may be a switch, a cable (Link), a NIC, a host or a GPU; any other kind, or an
// index out of range, gives an empty radius.
BlastRadius blastRadius(const Topology& topology, const ComponentRef& part);

// The hardware that failed in an incident (kind None for planned maintenance or when unknown).
ComponentRef failedPart(const Run& run, const Incident& incident);
// The GPUs of the incident's suspects that it took out, besides its failed part: a hang's other
// culprits, labelled in the 3D view as the part is (rank 14 beside rank 9), not left unnamed.
std::vector<std::int32_t> suspectGpus(const Run& run, const Incident& incident);

// The part's name as the topology spells it ("rtsw-r0003", "r0003-h1", "r0003-h1-nic2 <-> rtsw-r0003").
std::string partName(const Topology& topology, const ComponentRef& part);

// What a switch above the leaves takes of the bandwidth up from the switches below it:
// "bisection bandwidth -10.1% (8 of 9 spines left; 56 of 555 leaf-spine cables out)"; "" when none.
std::string uplinkShareText(const Topology& topology, const BlastRadius& radius, bool withCables = true);

// Whose traffic a switch, cable, NIC or host carries: the ranks on the GPUs below it and the
// run's jobs on their hosts, "carries the traffic of ranks 0-15 of job 1809562"; "" when the
// run places no rank and no job there.
std::string trafficThroughText(const Run& run, const ComponentRef& part, std::size_t maxJobs = 4);

// A few lines for a terminal: counts, then up to `maxNames` names of each kind.
std::string blastRadiusToText(const Topology& topology, const BlastRadius& radius, std::size_t maxNames = 8);

}  // namespace faultline
