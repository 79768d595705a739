#include "importers/console/readers.h"

namespace faultline {

const std::vector<FormatInfo>& consoleReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"training-log", "console log of a training job, behind any launcher's prefixes (srun, torchrun, mpirun, pdsh, Ray, collectors): NCCL, CUDA, out-of-memory, launcher, Slurm and Python errors, progress and checkpoints of Megatron-LM, DeepSpeed, torchtitan, HF Trainer, Lightning, NeMo", importTrainingLog},
    };
    return kReaders;
}

}  // namespace faultline
