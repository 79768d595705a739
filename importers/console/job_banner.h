#pragma once
// What a job's stdout says about the job itself: the SLURM_* variables launch scripts print
// (`env | grep SLURM_`, `set -x` traces of `export SLURM_JOB_ID=...`), torchrun's WORLD_SIZE,
// and Megatron's "using world size: 32, data-parallel-size: 1, tensor-model-parallel size: 4,
// pipeline-model-parallel size: 8". A new SLURM_JOB_ID (or restart count) in a log appended
// to across requeues starts the next job of the chain.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline {

struct SlurmVariable {
    std::string_view name;   // "SLURM_JOB_ID", without any "export " or "++ " before it
    std::string_view value;  // quotes removed
};
// "SLURM_JOB_ID=1234", "export SLURM_JOB_NAME=llama", "++ export SLURM_JOB_NODELIST='n[1-4]'",
// "WORLD_SIZE=16". Only the variables a run's shape and chain need are recognised.
std::optional<SlurmVariable> parseSlurmVariable(std::string_view line);

struct ParallelSizes {
    std::int32_t world = 0, data = 0, tensor = 0, pipeline = 0;
};
// Megatron-LM's argument banner, old ("data-parallel-size: 1") and new ("data-parallel size: 1").
std::optional<ParallelSizes> parseParallelSizes(std::string_view line);

// torchrun's launch banner and rendezvous result, one line each: "  nproc_per_node   : 8"
// (GPUs per node) and "  global_world_sizes=[16, 16, ...]" (the world size). 0 where unsaid.
struct TorchrunShape {
    std::int32_t procsPerNode = 0, worldSize = 0;
};
std::optional<TorchrunShape> parseTorchrunShape(std::string_view line);

}  // namespace faultline
