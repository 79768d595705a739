#include "job_shape.h"

namespace faultline {

std::string jobShapeText(const JobShape& s) {
    std::string split;
    auto part = [&split](const char* name, std::int32_t n) {
        if (n <= 0) return;
        split += (split.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(n);
    };
    part("tensor", s.tensorParallel);
    part("pipeline", s.pipelineParallel);
    part("data", s.dataParallel);
    std::string out = s.worldSize > 0 ? std::to_string(s.worldSize) + " ranks" : std::string();
    if (!split.empty()) out += (out.empty() ? "" : ": ") + split;
    if (s.gpusPerNode > 0) out += (out.empty() ? "" : ", ") + std::to_string(s.gpusPerNode) + (s.gpusPerNode == 1 ? " GPU a node" : " GPUs a node");
    return out;
}

std::string rankRoleText(const JobShape& s, std::int32_t rank) {
    const std::int32_t tp = s.tensorParallel, pp = s.pipelineParallel;
    if (rank < 0 || tp <= 0 || pp <= 0 || s.worldSize <= 0 || s.worldSize % (tp * pp) != 0 || rank >= s.worldSize) return {};
    const std::int32_t dp = s.worldSize / (tp * pp);
    const std::int32_t tensorRank = rank % tp;
    const std::int32_t replica = rank / tp % dp;
    const std::int32_t stage = rank / (tp * dp);
    return "tensor rank " + std::to_string(tensorRank) + " of " + std::to_string(tp) + ", pipeline stage " + std::to_string(stage) + " of " +
           std::to_string(pp) + ", data replica " + std::to_string(replica) + " of " + std::to_string(dp);
}

}  // namespace faultline
