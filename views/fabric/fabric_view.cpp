#include "views/fabric/fabric_view.h"

#include "views/fabric/blast_overlay.h"
#include "views/fabric/camera_flight.h"
#include "views/fabric/fabric_scene.h"
#include "views/gpu_palette.h"
#include "views/fabric/hall_colours.h"
#include "views/fabric/job_colouring.h"
#include "views/fabric/metric_colouring.h"
#include "model/metric_text.h"
#include "views/fabric/scene_legend.h"
#include "views/fabric/scene_passes.h"
#include "views/state_legend.h"
#include "views/state_palette.h"
#include "widgets/vtk_render_widget.h"

#include <QEvent>
#include <QImage>
#include <set>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {
// Screen pixels per GPU pitch from which GPUs are drawn as boxes; below it rows of racks are
// textured blocks (each GPU still its own patch), which costs a fraction of the triangles.
constexpr double kMinPixelsForBoxes = 24.0;
// Below this, rack switches would be specks on the racks: leave them out.
constexpr double kMinPixelsForRackSwitches = 6.0;
// The frame rate a replay aims at: a metric is read at buckets about one frame's step wide.
constexpr Nanos kReplayFps = 30;
}  // namespace

FabricView::FabricView(QWidget* parent)
    : QWidget(parent),
      m_render(new VtkRenderWidget(this)),
      m_legend(std::make_unique<SceneLegend>(m_render->renderer())),
      m_passes(std::make_unique<ScenePasses>(m_render->renderer())),
      m_flight(new CameraFlight(this, this)) {
    setObjectName("fabricView");
    m_render->setObjectName("fabricRender");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_render);
    refreshColours();
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, this, &FabricView::refreshColours);
    connect(m_render, &VtkRenderWidget::aboutToRender, this, &FabricView::refreshBeforeRender);
    connect(m_render, &VtkRenderWidget::cameraMovedByUser, this, [this] {
        m_flight->stop();  // the user's move stands: no later frame of a flight undoes it
        m_framing = Framing::None;
    });
    connect(m_render, &VtkRenderWidget::clicked, this, [this](const QPoint& pos) {
        // A click on the legend folds or unfolds it; it picks nothing behind it.
        const QPoint pixel = m_render->toVtkPixel(pos);
        const ScreenRect legend = m_legend->panelRect();
        if (m_legend->visible() && pixel.x() >= legend.x0 && pixel.x() <= legend.x1 && pixel.y() >= legend.y0 && pixel.y() <= legend.y1) {
            setLegendCollapsed(!m_legend->collapsed());
            return;
        }
        const ComponentRef part = partAt(pos);
        select(part);
        emit partSelected(part);
    });
}

FabricView::~FabricView() = default;

void FabricView::setRun(std::shared_ptr<const Run> run) {
    m_blast.reset();
    m_blastRadius = {};
    m_scene.reset();  // it refers to the old run's topology
    m_replay.reset();
    const bool wasMetric = m_metric != nullptr || m_jobColouring != nullptr;
    m_metric.reset();  // metric indices are the old run's
    m_jobColouring.reset();
    m_run = std::move(run);
    m_selected = {};
    m_flashing.clear();
    m_markedRacks.clear();
    if (wasMetric) emit colourByChanged(std::nullopt);
    if (!m_run) return updateLegend();
    m_replay = std::make_unique<ReplayIndex>(*m_run);
    m_scene = std::make_unique<FabricScene>(m_run->topology, m_render->renderer());
    m_blast = std::make_unique<BlastOverlay>(m_run->topology, m_scene->layout(), m_render->renderer());
    m_legend->setVisible(true);
    m_legend->bringToFront();  // over the labels and the blast radius's
    m_passes->setOcclusionRadius(1.5 * m_scene->layout().gpuPitch);
    m_passes->refresh();  // the new scene's actors
    refreshColours();
    m_states.assign(m_replay->gpuCount(), GpuVisual{});
    m_time = 0;
    m_statesDirty = true;
    m_fitPending = true;
    fitAll();
}

void FabricView::setTime(Nanos t) {
    if (t == m_time && m_flashing.empty()) return;
    m_time = t;
    m_flashing.clear();
    m_statesDirty = true;
    m_render->update();
}

void FabricView::setFlashing(std::vector<std::int32_t> gpus) {
    m_flashing = std::move(gpus);
    m_statesDirty = true;
    m_render->update();
}

void FabricView::setLegendCollapsed(bool collapsed) {
    m_legend->setCollapsed(collapsed);
    emit legendCollapsedChanged(collapsed);
    m_render->update();
}

bool FabricView::legendCollapsed() const { return m_legend->collapsed(); }

double FabricView::layoutLegend() {
    const int* size = m_render->renderWindow()->GetSize();
    m_legend->layout(size[0], size[1], overlayScale(size[1], m_render->devicePixelRatioF()));
    return m_legend->visible() ? m_legend->panelRect().y1 : 0;
}

void FabricView::refreshBeforeRender() {
    m_legend->setVisible(m_scene != nullptr);
    if (!m_scene) return;
    // Framed again once a flight has landed (it may be flying to a framing), and only while
    // the view keeps one: a camera the user or a flight aimed elsewhere stays.
    if (m_fitPending && !flying()) {
        m_fitPending = false;
        if (m_framing == Framing::Top) topView();
        else if (m_framing == Framing::All) fitAll();
    }
    chooseLevelOfDetail();
    m_passes->takeInNewActors();  // rows the level of detail built just now
    layoutLegend();
    const int* size = m_render->renderWindow()->GetSize();
    m_scene->placeLabels({m_legend->panelRect()}, overlayScale(size[1], m_render->devicePixelRatioF()));
    if (m_statesDirty) m_replay->statesAt(m_time, m_states);
    // An incident's GPU is labelled failed while it is, not after the replay passed its repair.
    if (m_blast)
        m_blast->showGpuLabelsWhere([this](std::int32_t gpu) {
            return gpu >= 0 && static_cast<std::size_t>(gpu) < m_states.size() && m_states[static_cast<std::size_t>(gpu)].state == GpuState::Failed;
        });
    if (!m_statesDirty) return;
    // A switch that stopped the job shows red beside the GPUs it cut off.
    std::int32_t failedSwitch = -1;
    const JobStatus job = m_replay->jobAt(m_time);
    if (job.failure >= 0 && (job.phase == JobPhase::Stopped || job.phase == JobPhase::Restarting)) {
        const Failure& f = m_run->failures[static_cast<std::size_t>(job.failure)];
        if (f.component.kind == ComponentKind::Switch) failedSwitch = f.component.index;
    }
    if (m_metric || m_jobColouring) {
        if (m_metric) m_metric->colour(m_time, m_states, activeStatePalette(), m_metricColours, m_metricRank);
        else m_jobColouring->colour(m_time, m_states, activeStatePalette(), m_metricColours, m_metricRank);
        m_scene->showColours(m_metricColours, m_metricRank, m_states, m_flashing, failedSwitch);
    } else {
        m_scene->showStates(m_states, m_flashing, failedSwitch);
    }
    m_statesDirty = false;
}

void FabricView::setColourBy(std::optional<std::int32_t> metric) {
    const bool byJob = metric == kColourByJob && m_run && !m_run->jobs.empty();
    if (metric && !byJob && (!m_run || *metric < 0 || static_cast<std::size_t>(*metric) >= m_run->telemetry.metrics.size())) metric.reset();
    if (metric == colourBy()) return;
    m_jobColouring = byJob ? std::make_unique<JobColouring>(*m_run) : nullptr;
    m_metric = metric && !byJob ? std::make_unique<MetricColouring>(*m_run, *metric, m_replayRate / kReplayFps) : nullptr;
    updateLegend();
    m_statesDirty = true;
    m_render->update();
    emit colourByChanged(metric);
}

std::optional<std::int32_t> FabricView::colourBy() const {
    if (m_jobColouring) return kColourByJob;
    return m_metric ? std::optional(m_metric->metric()) : std::nullopt;
}

void FabricView::setReplayRate(Nanos runTimePerSecond) {
    m_replayRate = std::max<Nanos>(0, runTimePerSecond);
    if (!m_metric || !m_run) return;
    // Rebuilt only when the level it reads changes: a frame's step moves across a bucket size.
    auto next = std::make_unique<MetricColouring>(*m_run, m_metric->metric(), m_replayRate / kReplayFps);
    if (next->reader().bucket() == m_metric->reader().bucket()) return;
    m_metric = std::move(next);
    m_statesDirty = true;
    m_render->update();
}

const MetricScale* FabricView::metricScale() const { return m_metric ? &m_metric->scale() : nullptr; }

float FabricView::metricValue(std::int32_t gpu) const {
    if (!m_metric || gpu < 0) return std::nanf("");
    return m_metric->reader().valueAt(gpu, m_time);
}

Rgb FabricView::gpuColourShown(std::int32_t gpu) const {
    if (!m_scene || gpu < 0 || static_cast<std::size_t>(gpu) >= m_scene->gpuColours().size()) return {0, 0, 0};
    return m_scene->gpuColours()[static_cast<std::size_t>(gpu)];
}

void FabricView::chooseLevelOfDetail() {
    if (m_pinnedDetail) return m_scene->setDetail(*m_pinnedDetail);
    vtkCamera* camera = m_render->renderer()->GetActiveCamera();
    const double height = std::max(1, m_render->renderWindowHeight());
    const double pitch = m_scene->layout().gpuPitch;
    auto detailFor = [](double pixelsPerGpu) {
        return pixelsPerGpu >= kMinPixelsForBoxes ? FabricDetail::Boxes : pixelsPerGpu >= kMinPixelsForRackSwitches ? FabricDetail::Rows : FabricDetail::Hall;
    };
    if (camera->GetParallelProjection()) {
        const FabricDetail d = detailFor(pitch * height / (2 * camera->GetParallelScale()));
        return m_scene->setDetail(d);
    }
    // In perspective a GPU's size on screen falls with its distance: each run of racks by
    // its nearest point to the eye.
    const double perUnitAtOne = height / (2 * std::tan(camera->GetViewAngle() * M_PI / 360.0));
    std::array<double, 3> eye{};
    camera->GetPosition(eye.data());
    m_scene->setDetails([&](const Box3& b) {
        double d2 = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            const double nearest = std::clamp<double>(eye[k], b.min[k], b.max[k]);
            d2 += (eye[k] - nearest) * (eye[k] - nearest);
        }
        return detailFor(pitch * perUnitAtOne / std::max(1e-6, std::sqrt(d2)));
    });
}

void FabricView::pinDetail(std::optional<FabricDetail> detail) {
    m_pinnedDetail = detail;
    update();
}

bool FabricView::racksAsBlocks() const { return m_scene && m_scene->detail() != FabricDetail::Boxes; }

const char* FabricView::detailName() const { return m_scene ? fabricDetailName(m_scene->detail()) : "none"; }

void FabricView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_scene && m_framing != Framing::None) {
        m_fitPending = true;
        m_render->update();
    }
}

void FabricView::setSmoothEdges(bool on) {
    m_passes->setSmoothEdges(on);
    m_render->update();
}

bool FabricView::smoothEdges() const { return m_passes->smoothEdges(); }

void FabricView::setAmbientOcclusion(bool on) {
    m_passes->setAmbientOcclusion(on);
    m_render->update();
}

bool FabricView::ambientOcclusion() const { return m_passes->ambientOcclusion(); }

const SceneLabels* FabricView::labels() const { return m_scene ? &m_scene->labels() : nullptr; }

std::optional<QPointF> FabricView::imagePointOf(const ComponentRef& part) const {
    if (!m_scene) return std::nullopt;
    const std::optional<Box3> box = m_scene->boxOf(part);
    if (!box) return std::nullopt;
    vtkRenderer* renderer = m_render->renderer();
    const auto c = box->centre();
    double eye[3], look[3];
    renderer->GetActiveCamera()->GetPosition(eye);
    renderer->GetActiveCamera()->GetDirectionOfProjection(look);
    if ((c[0] - eye[0]) * look[0] + (c[1] - eye[1]) * look[1] + (box->max[2] - eye[2]) * look[2] <= 0) return std::nullopt;
    renderer->SetWorldPoint(c[0], c[1], box->max[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    return QPointF(d[0], m_render->renderWindowHeight() - 1 - d[1]);
}

void FabricView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) refreshColours();
}

void FabricView::refreshColours() {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const HallColours& hall = dark ? kDarkHall : kLightHall;
    m_render->renderer()->SetBackground(hall.background[0] / 255.0, hall.background[1] / 255.0, hall.background[2] / 255.0);
    if (m_scene) m_scene->setHallColours(hall);
    updateLegend();
    m_legend->setColours(hall.legendPanel, hall.legendBorder, hall.label);
    m_statesDirty = true;  // the state palette may have changed with it
    m_render->update();
}

void FabricView::updateLegend() {
    const StatePalette& palette = activeStatePalette();
    m_legend->setPlainTitle(m_jobColouring ? "Job holding the GPU" : "GPU state");
    if (m_jobColouring) {
        m_legend->setScale(std::nullopt);
        m_legend->setEntries(jobLegendEntries(palette));
        m_render->update();
        return;
    }
    if (!m_metric) {
        m_legend->setScale(std::nullopt);
        m_legend->setEntries(stateLegendEntries(palette, m_run && !m_run->untracedGpus.empty()));
        return;
    }
    const MetricScale& scale = m_metric->scale();
    LegendScale bar{scale.title, {}, formatMetricValue(scale.min, scale.unit), formatMetricValue(scale.max, scale.unit)};
    for (int k = 0; k < 48; ++k) bar.colours.push_back(scaleColourAt(palette.metric, (k + 0.5) / 48));
    m_legend->setScale(std::move(bar));
    m_legend->setEntries(metricLegendEntries(palette));
    m_render->update();
}

void FabricView::fitAll() {
    stopFlightForPreset();
    if (!m_scene) return;
    m_framing = Framing::All;
    const Box3& b = m_scene->layout().bounds;
    const auto c = b.centre();
    vtkCamera* camera = m_render->renderer()->GetActiveCamera();
    camera->SetParallelProjection(false);
    camera->SetFocalPoint(c[0], c[1], c[2] * 0.5);
    // From the front and above: rows recede, the switch tiers stand over them.
    camera->SetPosition(c[0], c[1] - 1.0, c[2] * 0.5 + 1.0);
    camera->SetViewUp(0, 0, 1);
    fitBounds({b.min[0], b.max[0], b.min[1], b.max[1], b.min[2], b.max[2]});
}

void FabricView::topView() {
    stopFlightForPreset();
    if (!m_scene) return;
    m_framing = Framing::Top;
    const Box3& b = m_scene->layout().bounds;
    const auto c = b.centre();
    vtkCamera* camera = m_render->renderer()->GetActiveCamera();
    camera->SetFocalPoint(c[0], c[1], 0);
    camera->SetPosition(c[0], c[1], 1.0);
    camera->SetViewUp(0, 1, 0);
    // Every tier: the switches float over the hall and, seen from above in perspective,
    // spread out past the floor's edges; the tier names are centred over them.
    fitBounds({b.min[0], b.max[0], b.min[1], b.max[1], b.min[2], b.max[2]}, 28);
}

void FabricView::zoomTo(const ComponentRef& part) {
    stopFlightForPreset();
    if (!m_scene) return;
    m_framing = Framing::None;
    auto box = m_scene->boxOf(part);
    if (!box) return;
    if (part.kind == ComponentKind::Gpu || part.kind == ComponentKind::Host) {
        // Show the whole rack around it: a GPU alone has no context.
        const auto host = part.kind == ComponentKind::Host ? part.index : m_run->topology.gpus[static_cast<std::size_t>(part.index)].host;
        box = m_scene->layout().racks[static_cast<std::size_t>(m_run->topology.hosts[static_cast<std::size_t>(host)].rack)];
    }
    fitBounds({box->min[0] - 2, box->max[0] + 2, box->min[1] - 2, box->max[1] + 2, box->min[2], box->max[2] + 1});
}

void FabricView::zoomToInPlace(const ComponentRef& part) {
    if (!m_scene || !m_run || m_run->topology.clusters.size() < 2) return zoomTo(part);
    const Topology& t = m_run->topology;
    std::int32_t host = part.kind == ComponentKind::Host ? part.index : -1;
    if (part.kind == ComponentKind::Gpu && part.index >= 0 && static_cast<std::size_t>(part.index) < t.gpus.size())
        host = t.gpus[static_cast<std::size_t>(part.index)].host;
    if (host < 0 || static_cast<std::size_t>(host) >= t.hosts.size()) return zoomTo(part);
    const std::size_t rack = static_cast<std::size_t>(t.hosts[static_cast<std::size_t>(host)].rack);
    const std::size_t zone = static_cast<std::size_t>(t.racks[rack].zone);
    const FabricLayout& layout = m_scene->layout();
    if (rack >= layout.racks.size() || zone >= layout.zones.size()) return zoomTo(part);
    stopFlightForPreset();
    m_framing = Framing::None;
    // Centred on the rack, half a zone's floor to each side: where the rack stands in its
    // zone moves the zone's edges and aisles in the picture, so no two places look alike.
    const Box3& r = layout.racks[rack];
    const Box3& z = layout.zones[zone];
    const auto c = r.centre();
    const float halfX = std::max((z.max[0] - z.min[0]) / 2, (r.max[0] - r.min[0]) / 2 + 2);
    const float halfY = std::max((z.max[1] - z.min[1]) / 2, (r.max[1] - r.min[1]) / 2 + 2);
    fitBounds({c[0] - halfX, c[0] + halfX, c[1] - halfY, c[1] + halfY, 0, r.max[2] + 1});
}

void FabricView::stopFlightForPreset() { m_flight->stop(); }

void FabricView::flyTo(const std::function<void()>& aim, int ms) { m_flight->flyTo(aim, ms); }

bool FabricView::flying() const { return m_flight->flying(); }

void FabricView::landFlight() { m_flight->land(); }

CameraPose FabricView::cameraPose() const { return poseOf(*m_render->renderer()->GetActiveCamera()); }

void FabricView::setCameraPose(const CameraPose& pose) {
    stopFlightForPreset();
    m_framing = Framing::None;
    applyPose(*m_render->renderer()->GetActiveCamera(), pose);
    m_render->renderer()->ResetCameraClippingRange();
    m_render->update();
}

void FabricView::frameParts(const std::vector<ComponentRef>& parts) {
    stopFlightForPreset();
    if (!m_scene) return;
    m_framing = Framing::None;
    std::array<double, 6> b{1e30, -1e30, 1e30, -1e30, 1e30, -1e30};
    bool any = false;
    for (const ComponentRef& part : parts)
        if (const auto box = m_scene->boxOf(part)) {
            any = true;
            for (std::size_t k = 0; k < 3; ++k) {
                b[2 * k] = std::min<double>(b[2 * k], box->min[k]);
                b[2 * k + 1] = std::max<double>(b[2 * k + 1], box->max[k]);
            }
        }
    if (any) fitBounds(b);
}

void FabricView::fitBounds(const std::array<double, 6>& b, double marginPixels) {
    m_render->syncSize();
    vtkRenderer* renderer = m_render->renderer();
    vtkCamera* camera = renderer->GetActiveCamera();
    renderer->ResetCamera(b.data());
    const int* size = m_render->renderWindow()->GetSize();
    const double w = std::max(1, size[0]), h = std::max(1, size[1]);
    const double legend = layoutLegend();  // the bottom strip the legend covers: fit above it
    // ResetCamera fits a bounding sphere, which leaves a flat cluster small: measure where
    // the box's corners land on screen, recentre and zoom until they fill the view.
    for (int pass = 0; pass < 4; ++pass) {
        double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
        for (int corner = 0; corner < 8; ++corner) {
            renderer->SetWorldPoint(b[corner & 1 ? 1 : 0], b[corner & 2 ? 3 : 2], b[corner & 4 ? 5 : 4], 1.0);
            renderer->WorldToDisplay();
            const double* d = renderer->GetDisplayPoint();
            x0 = std::min(x0, d[0]), x1 = std::max(x1, d[0]), y0 = std::min(y0, d[1]), y1 = std::max(y1, d[1]);
        }
        double* focal = camera->GetFocalPoint();
        renderer->SetWorldPoint(focal[0], focal[1], focal[2], 1.0);
        renderer->WorldToDisplay();
        const double depth = renderer->GetDisplayPoint()[2];
        std::array<std::array<double, 3>, 2> ends{};
        const std::array<std::array<double, 2>, 2> screen{{{(x0 + x1) / 2, (y0 + y1) / 2}, {w / 2, (h + legend) / 2}}};
        for (std::size_t k = 0; k < 2; ++k) {
            renderer->SetDisplayPoint(screen[k][0], screen[k][1], depth);
            renderer->DisplayToWorld();
            const double* p = renderer->GetWorldPoint();
            for (std::size_t i = 0; i < 3; ++i) ends[k][i] = p[i] / p[3];
        }
        double* pos = camera->GetPosition();
        const std::array<double, 3> shift{ends[0][0] - ends[1][0], ends[0][1] - ends[1][1], ends[0][2] - ends[1][2]};
        camera->SetFocalPoint(focal[0] + shift[0], focal[1] + shift[1], focal[2] + shift[2]);
        camera->SetPosition(pos[0] + shift[0], pos[1] + shift[1], pos[2] + shift[2]);
        const double zoom = std::min(std::max(1.0, 0.94 * w - 2 * marginPixels) / std::max(1.0, x1 - x0),
                                     std::max(1.0, 0.94 * (h - legend) - 2 * marginPixels) / std::max(1.0, y1 - y0));
        if (camera->GetParallelProjection()) camera->SetParallelScale(camera->GetParallelScale() / zoom);
        else camera->Dolly(zoom);
        renderer->ResetCameraClippingRange(b.data());
    }
    const Box3& all = m_scene->layout().bounds;
    renderer->ResetCameraClippingRange(all.min[0], all.max[0], all.min[1], all.max[1], all.min[2], all.max[2]);
    m_render->update();
}

void FabricView::select(const ComponentRef& part) {
    m_selected = part;
    if (m_scene) m_scene->highlight(part);
    // A drag then orbits about what was selected, so that it stays in view as the camera turns.
    const auto box = m_scene ? m_scene->boxOf(part) : std::nullopt;
    if (box) {
        const auto c = box->centre();
        m_render->setOrbitCentre(std::array<double, 3>{c[0], c[1], c[2]});
    } else {
        m_render->setOrbitCentre(std::nullopt);
    }
    const bool preview = part.kind == ComponentKind::Switch || part.kind == ComponentKind::Link;
    showBlastRadius(preview ? part : ComponentRef{});
    m_render->update();
}

void FabricView::showBlastRadius(const ComponentRef& part, const std::vector<std::int32_t>& alsoFailed) {
    if (!m_blast) return;
    m_blastRadius = blastRadius(m_run->topology, part);
    m_blast->show(m_blastRadius, alsoFailed);
    m_render->update();
}

QString FabricView::blastLabel() const { return m_blast ? QString::fromStdString(m_blast->label()) : QString(); }

QStringList FabricView::blastLabels() const {
    QStringList out;
    if (m_blast)
        for (const std::string& l : m_blast->labels()) out << QString::fromStdString(l);
    return out;
}

void FabricView::frameBlastRadius() {
    stopFlightForPreset();
    if (!m_blast || m_blastRadius.part.kind == ComponentKind::None) return;
    m_framing = Framing::None;
    std::array<double, 6> b{1e30, -1e30, 1e30, -1e30, 1e30, -1e30};
    for (const Box3& box : m_blast->scope(m_blastRadius))
        for (std::size_t k = 0; k < 3; ++k) {
            b[2 * k] = std::min<double>(b[2 * k], box.min[k]);
            b[2 * k + 1] = std::max<double>(b[2 * k + 1], box.max[k]);
        }
    // A margin of a couple of GPU pitches, so the outlines and the label are not at the edge.
    const double margin = 2 * m_scene->layout().gpuPitch + 1;
    for (std::size_t k = 0; k < 3; ++k) b[2 * k] -= margin, b[2 * k + 1] += margin;
    // And room on screen for the names written above the topmost switches.
    const int* size = m_render->renderWindow()->GetSize();
    fitBounds(b, 24 * overlayScale(size[1], m_render->devicePixelRatioF()));
}

void FabricView::markCause(std::optional<RootCause> cause) {
    std::set<std::int32_t> racks;
    if (m_run && cause) {
        const Topology& t = m_run->topology;
        for (const Failure& f : m_run->failures) {
            if (f.cause != *cause) continue;
            for (std::int32_t g : f.gpus)
                if (g >= 0 && static_cast<std::size_t>(g) < t.gpus.size())
                    racks.insert(t.hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)].rack);
        }
    }
    m_markedRacks.assign(racks.begin(), racks.end());
    if (m_scene) m_scene->markRacks(m_markedRacks);
    m_render->update();
}

ComponentRef FabricView::partAt(const QPoint& widgetPos) const {
    if (!m_scene) return {};
    vtkRenderer* renderer = m_render->renderer();
    const QPoint p = m_render->toVtkPixel(m_render->mapFrom(this, widgetPos));
    // The legend is drawn over the hall there: a click on it picks nothing behind it.
    if (const ScreenRect legend = m_legend->panelRect(); m_legend->visible() && legend.intersects({p.x() + 0.0, p.y() + 0.0, p.x() + 1.0, p.y() + 1.0}))
        return {};
    std::array<std::array<double, 3>, 2> ends{};
    for (int k = 0; k < 2; ++k) {
        renderer->SetDisplayPoint(p.x(), p.y(), k);
        renderer->DisplayToWorld();
        const double* w = renderer->GetWorldPoint();
        for (std::size_t i = 0; i < 3; ++i) ends[static_cast<std::size_t>(k)][i] = w[i] / w[3];
    }
    const std::array<double, 3> dir{ends[1][0] - ends[0][0], ends[1][1] - ends[0][1], ends[1][2] - ends[0][2]};
    return m_scene->pick(ends[0], dir);
}

QPointF FabricView::positionOf(const ComponentRef& part) const {
    const auto box = m_scene ? m_scene->boxOf(part) : std::nullopt;
    if (!box) return {-1, -1};
    const auto c = box->centre();
    vtkRenderer* renderer = m_render->renderer();
    // A GPU and a host tray face the aisle: their front. A switch: its top.
    if (part.kind == ComponentKind::Gpu || part.kind == ComponentKind::Host) renderer->SetWorldPoint(c[0], box->min[1], c[2], 1.0);
    else renderer->SetWorldPoint(c[0], c[1], box->max[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const double dpr = m_render->devicePixelRatioF();
    const QPointF inRender(d[0] / dpr, (m_render->renderWindowHeight() - 1 - d[1]) / dpr);
    return m_render->mapTo(this, inRender);
}

QImage FabricView::renderImage() { return m_render->grabFramebuffer(); }

}  // namespace faultline
