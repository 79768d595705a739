#include "importers/slurm/readers.h"

namespace faultline {

const std::vector<FormatInfo>& slurmReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"slurm-topology", "Slurm topology.conf, tree (SwitchName=) or block (BlockName=) form", importSlurmTopology},
        {"sacct", "Slurm sacct --parsable output with a header (any delimiter)", importSacct},
        {"sacct-json", "Slurm sacct --json output (Slurm 21.08 and later)", importSacctJson},
    };
    return kReaders;
}

}  // namespace faultline
