#include "views/state_legend.h"

#include "views/fabric/job_colouring.h"

namespace faultline {

std::vector<LegendEntry> stateLegendEntries(const StatePalette& states, bool untraced) {
    const GpuVisual straggler{GpuState::Straggling, 10, false, 0};
    const GpuVisual badStraggler{GpuState::Straggling, 50, false, 0};
    std::vector<LegendEntry> entries{
        {states.training, "training", {}},
        {gpuColour(straggler, states), "straggling, 10% slower", {}},
        {gpuColour(badStraggler, states), "straggling, 50% slower", {}},
        {states.checkpointing, "checkpoint save / reload", {}},
        {states.down, "job down, restarting", {}},
        {states.failed, "failed / cut off by the failure", {}},
        {states.flash, "failing now (flash)", {}},
        {kTrainingColour, "replaced hardware", kReplacedOutline},
    };
    if (untraced) entries.insert(entries.begin() + 1, {states.noData, "no data: not traced", {}});
    return entries;
}

std::vector<LegendEntry> metricLegendEntries(const StatePalette& states) {
    return {
        {states.metric.noData, "no reading at this instant", {}},
        {states.failed, "failed / cut off by the failure", {}},
        {states.flash, "failing now (flash)", {}},
        {states.metric.noData, "replaced hardware", kReplacedOutline},
    };
}

std::vector<LegendEntry> jobLegendEntries(const StatePalette& states) {
    // A few jobs' colours stand for all: each job has its own, kept through its requeues.
    Job a, b, c;
    a.id = "1", b.id = "2", c.id = "3";
    return {
        {jobColour(a), "one job (each its own colour)", {}},
        {jobColour(b), "another job", {}},
        {jobColour(c), "another job", {}},
        {kIdleColour, "idle: no job holds it", {}},
        {states.failed, "failed", {}},
        {states.flash, "failing now (flash)", {}},
    };
}

}  // namespace faultline
