#pragma once
// What to check next for a kind of failure: a short catalogue of what the evidence means and
// what to do about it, each entry with its source (NVIDIA's Xid documentation, NCCL's error
// codes, PyTorch's CUDA memory notes, the InfiniBand verbs' completion statuses). Shown beside
// an incident's evidence in the incident view, the inspector and `faultline-cli incidents --id N`.
#include "analysis/incidents.h"
#include "model/run.h"

#include <string>
#include <vector>

namespace faultline {

struct NextCheck {
    std::string evidence;  // what matched: "Xid 79", "NCCL ncclRemoteError", "IB completion status 12"
    std::string meaning;   // what it means, in a reviewer's words
    std::string check;     // what to check or do next
    std::string source;    // where the meaning and the action come from
};

// The entries that match the incident: its Xid, its cause and the words of its evidence (the
// failure's detail and the incident's chain). Most specific first; none for planned maintenance.
std::vector<NextCheck> nextChecks(const Incident& incident, const Run& run);
// The catalogue's lines as text: "What to check next" and one block per entry.
std::string nextChecksToText(const std::vector<NextCheck>& checks);

}  // namespace faultline
