#include "importers/events/reader.h"

#include "model/error.h"

namespace faultline {

void setImportedTopology(Topology topology, const std::string& path, ImportContext& ctx) {
    if (ctx.events.topology)
        throw Error(path + ": a second topology file (the first was " + ctx.events.topologySource + "); import one topology per run");
    ctx.events.topology = std::move(topology);
    ctx.events.topologySource = path;
}

}  // namespace faultline
