#include "views/fabric/incident_camera.h"

#include "views/fabric/fabric_view.h"

namespace faultline {

IncidentShot showIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus,
                          const std::vector<std::int32_t>& alsoFailed) {
    FabricView* v = &view;
    if (failed.kind != ComponentKind::None && failed.kind != ComponentKind::Gpu) {
        view.select(failed);
        view.showBlastRadius(failed);
        return {failed, [v] { v->frameBlastRadius(); }};
    }
    if (failed.kind == ComponentKind::Gpu || !gpus.empty()) {
        const ComponentRef gpu = failed.kind == ComponentKind::Gpu ? failed : ComponentRef{ComponentKind::Gpu, gpus.front()};
        view.select(gpu);
        // A GPU that failed itself is labelled so, with its way up; one merely taken out by a
        // failure elsewhere (no hardware named) is only selected.
        if (failed.kind == ComponentKind::Gpu) view.showBlastRadius(gpu, alsoFailed);
        return {gpu, [v, gpu] { v->zoomToInPlace(gpu); }};
    }
    view.select({});
    return {{}, [v] { v->fitAll(); }};
}

ComponentRef flyToIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus, int ms,
                           const std::vector<std::int32_t>& alsoFailed) {
    const IncidentShot shot = showIncident(view, failed, gpus, alsoFailed);
    view.flyTo(shot.aim, ms);
    return shot.selected;
}

}  // namespace faultline
