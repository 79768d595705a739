#pragma once
// How the training job split its ranks, as its log printed it (Megatron's "using world size:
// 32, data-parallel-size: 1, tensor-model-parallel size: 4, pipeline-model-parallel size: 8",
// torchrun's nproc_per_node). Zero where the files do not say.
#include <cstdint>
#include <string>

namespace faultline {

struct JobShape {
    std::int32_t worldSize = 0;
    std::int32_t gpusPerNode = 0;
    std::int32_t tensorParallel = 0;
    std::int32_t pipelineParallel = 0;
    std::int32_t dataParallel = 0;

    bool known() const { return worldSize > 0 || gpusPerNode > 0 || tensorParallel > 0 || pipelineParallel > 0 || dataParallel > 0; }
    bool operator==(const JobShape&) const = default;
};

// "32 ranks: tensor 4 x pipeline 8 x data 1, 4 GPUs a node"; "" when nothing is known.
std::string jobShapeText(const JobShape& shape);

// Where a rank sits in that split, in Megatron's default order (tensor-parallel ranks
// adjacent, then data, then pipeline): "tensor rank 1 of 4, pipeline stage 3 of 8, data
// replica 1 of 1"; "" when the shape does not give the split.
std::string rankRoleText(const JobShape& shape, std::int32_t rank);

}  // namespace faultline
