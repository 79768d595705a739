#pragma once
// The cluster in 3D at one instant of the run: every GPU coloured by its state, the switch
// tiers above, links between. Owns the run's replay index; the instant is set from outside
// (the replay panel). Click to pick a GPU, host or switch.
#include "analysis/blast_radius.h"
#include "views/fabric/camera_pose.h"
#include "views/fabric/fabric_detail.h"
#include "views/gpu_palette.h"
#include "views/fabric/job_colouring.h"
#include "model/replay_state.h"
#include "model/run.h"

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <array>
#include <functional>
#include <memory>
#include <optional>

class QImage;

namespace faultline {

class BlastOverlay;
class CameraFlight;
class FabricScene;
class MetricColouring;
struct MetricScale;
class SceneLabels;
class SceneLegend;
class ScenePasses;
class VtkRenderWidget;

class FabricView : public QWidget {
    Q_OBJECT
public:
    explicit FabricView(QWidget* parent = nullptr);
    ~FabricView() override;

    // The run to show; the view keeps it alive.
    void setRun(std::shared_ptr<const Run> run);
    const Run* run() const { return m_run.get(); }
    const ReplayIndex* replay() const { return m_replay.get(); }

    void setTime(Nanos t);
    Nanos time() const { return m_time; }
    // GPUs drawn as flashing (a failure that just happened), until the next setTime.
    void setFlashing(std::vector<std::int32_t> gpus);

    // View > Colour By: each GPU by its reading of one of the run's metrics (an index into
    // run()->telemetry.metrics) at the current instant, with the scale in the legend; nullopt
    // colours by state; kColourByJob (job_colouring.h) by the job holding each GPU.
    // A new run goes back to state.
    void setColourBy(std::optional<std::int32_t> metric);
    std::optional<std::int32_t> colourBy() const;
    // How much run time the replay covers per second of real time (0 while paused): a metric
    // is read at the summary level whose buckets are about a frame's step.
    void setReplayRate(Nanos runTimePerSecond);
    // The scale of the metric coloured by (nullptr when colouring by state).
    const MetricScale* metricScale() const;
    // The reading behind a GPU's colour at the current instant (NaN: no data or no metric).
    float metricValue(std::int32_t gpu) const;
    // A GPU's colour as last drawn (for tests; black before the first frame or without a run).
    Rgb gpuColourShown(std::int32_t gpu) const;

    // Camera presets. The cluster stays framed by the last of fitAll or topView when the
    // view is resized, until the user moves the camera or it is aimed elsewhere.
    void fitAll();
    void topView();
    bool keepsFramed() const { return m_framing != Framing::None; }
    void zoomTo(const ComponentRef& part);
    // zoomTo for an incident: in a fleet, where every rack looks like the next, the part's
    // rack at the centre of a zone's breadth of its surroundings (the zone's edges, aisles
    // and neighbours place it); in one cluster, zoomTo.
    void zoomToInPlace(const ComponentRef& part);
    // Flies the camera, eased over a moment, to where `aim` (one of the presets here) puts
    // it, so that an audience sees where the hardware sits instead of a cut. The user moving
    // the camera, or any preset, stops a flight where it is.
    void flyTo(const std::function<void()>& aim, int ms = 1200);
    bool flying() const;
    // Ends a flight at once where it was going (a screenshot shows where the camera lands).
    void landFlight();
    // The camera as it is; set as given (a saved viewpoint), kept until the user moves it.
    CameraPose cameraPose() const;
    void setCameraPose(const CameraPose& pose);
    // Frames every one of the parts (GPUs, hosts, switches) at once.
    void frameParts(const std::vector<ComponentRef>& parts);

    // Selecting a switch or a cable previews its blast radius ("what would this take out").
    void select(const ComponentRef& part);
    // Outlines the racks of every failure of this root cause (nullopt clears them).
    void markCause(std::optional<RootCause> cause);
    const std::vector<std::int32_t>& markedRacks() const { return m_markedRacks; }
    // Draws what this part cuts off and its way up the fabric; kind None hides it.
    // `alsoFailed`: GPUs that failed with a failed GPU (a hang's other culprits), labelled too.
    void showBlastRadius(const ComponentRef& part, const std::vector<std::int32_t>& alsoFailed = {});
    const BlastRadius& blastRadiusShown() const { return m_blastRadius; }
    // The label drawn at the part whose blast radius is shown ("rtsw-r0001: cuts off 16 GPUs").
    QString blastLabel() const;
    // Every label of the blast radius shown: the part's, then its fellow failed GPUs'.
    QStringList blastLabels() const;
    // Frames the part shown with its whole scope (what it cuts off, all below a switch).
    void frameBlastRadius();
    ComponentRef selected() const { return m_selected; }
    // What is drawn at a point of the widget, in widget coordinates.
    ComponentRef partAt(const QPoint& widgetPos) const;
    // Where a part is drawn, in widget coordinates: the centre of the front of a GPU or a
    // host's tray, of the top of a switch.
    QPointF positionOf(const ComponentRef& part) const;
    QPointF gpuPosition(std::int32_t gpu) const { return positionOf({ComponentKind::Gpu, gpu}); }

    // Renders now and returns the frame (for snapshots and tests).
    QImage renderImage();
    VtkRenderWidget* renderWidget() const { return m_render; }
    bool racksAsBlocks() const;
    const char* detailName() const;  // "boxes", "rows" or "hall" (fabric_detail.h), "none" without a run
    // Pins the level of detail instead of choosing it from the camera distance; nullopt
    // unpins it. For benchmarks (pinnedDetailFromEnvironment() reads the one they ask for).
    void pinDetail(std::optional<FabricDetail> detail);
    // Draws again in the theme's hall colours (dark floor in the dark theme) and the active
    // state palette (state_palette.h); a change of either calls it by itself.
    void refreshColours();
    // Anti-aliased edges (VTK's FXAA pass). Off by default: on a software rasteriser
    // (llvmpipe) it takes a frame from about 35-58 ms to about 330 ms; on a GPU it is cheap.
    void setSmoothEdges(bool on);
    bool smoothEdges() const;
    // Ambient occlusion (VTK's SSAO pass): creases between cabinets, trays and the floor
    // darken. Off by default: on a software rasteriser it takes a 24,576-GPU frame from
    // about 40 ms to about 430 ms of processor time.
    void setAmbientOcclusion(bool on);
    bool ambientOcclusion() const;
    // The legend drawn in the view's bottom-left corner, and the floating labels as last
    // placed (none without a run).
    const SceneLegend& legend() const { return *m_legend; }
    const SceneLabels* labels() const;
    // Where the top of a part is drawn now, in the render window's pixels from its top-left
    // (what renderImage() returns); none without a run, for an unknown part or behind the eye.
    std::optional<QPointF> imagePointOf(const ComponentRef& part) const;
    // The legend folded to its title (a click on it, or View > Fold the Legend).
    void setLegendCollapsed(bool collapsed);
    bool legendCollapsed() const;

signals:
    void partSelected(const faultline::ComponentRef& part);
    void colourByChanged(std::optional<std::int32_t> metric);
    void legendCollapsedChanged(bool collapsed);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refreshBeforeRender();
    // Lays the legend out for the window's size now; the height it takes from the bottom.
    double layoutLegend();
    void chooseLevelOfDetail();
    void showColours();
    void updateLegend();
    std::optional<FabricDetail> m_pinnedDetail;
    // Points the camera so that the box fills the view, keeping the direction it looks in.
    // `marginPixels` more are kept free on every side (for labels centred on a switch).
    void fitBounds(const std::array<double, 6>& bounds, double marginPixels = 0);
    // Every camera preset starts here: the camera it asks for now wins over a flight under way.
    void stopFlightForPreset();

    VtkRenderWidget* m_render;
    std::unique_ptr<SceneLegend> m_legend;
    std::unique_ptr<ScenePasses> m_passes;
    std::shared_ptr<const Run> m_run;
    std::unique_ptr<ReplayIndex> m_replay;
    std::unique_ptr<FabricScene> m_scene;
    CameraFlight* m_flight;
    std::unique_ptr<BlastOverlay> m_blast;  // refers to the scene's layout: reset first
    BlastRadius m_blastRadius;
    std::vector<GpuVisual> m_states;
    std::unique_ptr<MetricColouring> m_metric;  // null: coloured by state (or job)
    std::unique_ptr<JobColouring> m_jobColouring;  // set: coloured by job
    Nanos m_replayRate = 0;
    std::vector<Rgb> m_metricColours;
    std::vector<int> m_metricRank;
    std::vector<std::int32_t> m_markedRacks;
    std::vector<std::int32_t> m_flashing;
    Nanos m_time = 0;
    bool m_statesDirty = true;
    bool m_fitPending = false;  // frame again at the next paint, when the widget has its size
    enum class Framing { None, All, Top };
    Framing m_framing = Framing::None;
    ComponentRef m_selected;
};

}  // namespace faultline
