#include "incident_camera.h"

#include "fabric_view.h"

namespace faultline {

ComponentRef flyToIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus, int ms) {
    if (failed.kind != ComponentKind::None && failed.kind != ComponentKind::Gpu) {
        view.select(failed);
        view.showBlastRadius(failed);
        view.flyTo([&view] { view.frameBlastRadius(); }, ms);
        return failed;
    }
    if (failed.kind == ComponentKind::Gpu || !gpus.empty()) {
        const ComponentRef gpu = failed.kind == ComponentKind::Gpu ? failed : ComponentRef{ComponentKind::Gpu, gpus.front()};
        view.select(gpu);
        // A GPU that failed itself is labelled so, with its way up; one merely taken out by a
        // failure elsewhere (no hardware named) is only selected.
        if (failed.kind == ComponentKind::Gpu) view.showBlastRadius(gpu);
        view.flyTo([&view, gpu] { view.zoomTo(gpu); }, ms);
        return gpu;
    }
    view.select({});
    view.flyTo([&view] { view.fitAll(); }, ms);
    return {};
}

}  // namespace faultline
