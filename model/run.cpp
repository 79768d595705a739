#include "run.h"

namespace faultline {

std::vector<TrainingSegment> trainingSegments(const Run& run) {
    std::vector<TrainingSegment> out;
    Nanos from = 0;
    for (const Downtime& d : run.downtimes) {
        if (d.begin > from) out.push_back({from, d.begin});
        from = std::max(from, d.end);
    }
    if (run.info.duration > from) out.push_back({from, run.info.duration});
    return out;
}

}  // namespace faultline
