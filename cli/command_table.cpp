#include "cli/commands.h"

namespace faultline::cli {

const std::vector<Command>& commands() {
    // In the order a newcomer meets them: make or read a run, then look into it.
    static const std::vector<Command> table = {
        {simulateSpec, simulateCommand},     {importSpec, importCommand}, {mergeSpec, mergeCommand},
        {summarySpec, summaryCommand},       {incidentsSpec, incidentsCommand}, {jobsSpec, jobsCommand},
        {stragglersSpec, stragglersCommand}, {hangSpec, hangCommand}, {powerSpec, powerCommand},     {telemetrySpec, telemetryCommand},     {compareSpec, compareCommand},
        {whatIfSpec, whatIfCommand},         {exportSpec, exportCommand},
        {viewpointsSpec, viewpointsCommand},
    };
    return table;
}

}  // namespace faultline::cli
