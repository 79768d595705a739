#include "views/fabric/fabric_scene.h"

#include "views/fabric/hall_colours.h"
#include "views/fabric/line_geometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <limits>

namespace faultline {

namespace {

// Racks holding the incidents of the cause the charts filter on: amber, a colour neither a
// GPU state nor the blast radius (purple, green) uses.
constexpr Rgb kCauseMarkColour{170, 100, 0};

// The boxes of the switches of one kind (rack tier, or the tiers above), and for every
// switch its place among them (-1 when it is of the other kind).
std::vector<Box3> switchBoxes(const Topology& t, const FabricLayout& layout, bool rackTier, std::vector<std::int32_t>& index) {
    std::vector<Box3> boxes;
    index.assign(t.switches.size(), -1);
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        // A fat tree's leaves in their own row are drawn as the tiers above are, at any distance.
        const bool onRack = t.switches[i].tier == SwitchTier::Rack && (t.fabricOfSwitch(static_cast<std::int32_t>(i)) != FabricKind::InfinibandFatTree || t.switches[i].rack >= 0);
        if (onRack == rackTier) {
            index[i] = static_cast<std::int32_t>(boxes.size());
            boxes.push_back(layout.switches[i]);
        }
    }
    return boxes;
}

// Where along the ray it enters the box, if it does (slab method).
std::optional<double> hit(const Box3& b, const std::array<double, 3>& o, const std::array<double, 3>& d) {
    double near = 0, far = std::numeric_limits<double>::max();
    for (std::size_t k = 0; k < 3; ++k) {
        if (d[k] == 0) {
            if (o[k] < b.min[k] || o[k] > b.max[k]) return std::nullopt;
            continue;
        }
        double t0 = (b.min[k] - o[k]) / d[k], t1 = (b.max[k] - o[k]) / d[k];
        if (t0 > t1) std::swap(t0, t1);
        near = std::max(near, t0);
        far = std::min(far, t1);
        if (near > far) return std::nullopt;
    }
    return near;
}

std::int32_t clusterOfRack(const Topology& t, std::int32_t rack) {
    const auto zone = static_cast<std::size_t>(t.racks[static_cast<std::size_t>(rack)].zone);
    return zone < t.zones.size() ? t.zones[zone].cluster : 0;
}

// GPUs in runs of whole racks of about a thousand: a close view culls what it does not see.
std::vector<std::size_t> gpuChunks(const Topology& t) {
    constexpr std::size_t kGpusPerChunk = 1024;
    std::vector<std::size_t> starts{0};
    std::int32_t rack = -1;
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const std::int32_t r = t.hosts[static_cast<std::size_t>(t.gpus[g].host)].rack;
        // A new chunk only where a new row of racks starts: far away a row is one block.
        const bool newRow = rack < 0 || t.racks[static_cast<std::size_t>(r)].row != t.racks[static_cast<std::size_t>(rack)].row ||
                            t.racks[static_cast<std::size_t>(r)].zone != t.racks[static_cast<std::size_t>(rack)].zone;
        // Each hall (a fleet's cluster) its own chunks: far away a hall is one block of rows.
        const bool newHall = rack >= 0 && r != rack && clusterOfRack(t, r) != clusterOfRack(t, rack);
        if (g > starts.back() && (newHall || (r != rack && newRow && g - starts.back() >= kGpusPerChunk))) starts.push_back(g);
        rack = r;
    }
    // Chunks of racks must match: racks in ascending order along the GPUs, else one chunk.
    std::int32_t last = -1;
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const std::int32_t r = t.hosts[static_cast<std::size_t>(t.gpus[g].host)].rack;
        if (r < last) return {0};
        last = r;
    }
    return starts;
}

// The first host of each chunk of GPUs.
std::vector<std::size_t> hostChunks(const Topology& t, const std::vector<std::size_t>& gpuStarts) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 1; i < gpuStarts.size(); ++i) starts.push_back(static_cast<std::size_t>(t.gpus[gpuStarts[i]].host));
    return starts;
}

// Texels per GPU pitch on the row blocks: sharp up to where boxes take over for the nearer
// rows; few for the hall seen whole, where more would only cost texture reads.
constexpr float kRowTexelsPerUnit = 10.0f;
constexpr float kHallTexelsPerUnit = 2.0f;

// The whole floor under the zones, with a margin.
std::vector<Box3> floorBox(const FabricLayout& layout) {
    Box3 f = layout.bounds;
    const float margin = 0.04f * std::max(f.max[0] - f.min[0], f.max[1] - f.min[1]) + 2.0f;
    return {{{f.min[0] - margin, f.min[1] - margin, -0.06f}, {f.max[0] + margin, f.max[1] + margin, -0.05f}}};
}

// The first rack of each chunk of GPUs.
std::vector<std::size_t> rackChunks(const Topology& t, const std::vector<std::size_t>& gpuStarts) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 1; i < gpuStarts.size(); ++i)
        starts.push_back(static_cast<std::size_t>(t.hosts[static_cast<std::size_t>(t.gpus[gpuStarts[i]].host)].rack));
    return starts;
}

}  // namespace

FabricScene::FabricScene(const Topology& topology, vtkRenderer* renderer)
    : m_topology(topology),
      m_renderer(renderer),
      m_layout(layoutFabric(topology)),
      m_gpus(m_layout.gpus, gpuChunks(topology), BoxMesh::Faces::OpenBack, BoxMesh::Lit::Front),
      m_cabinets(m_layout.cabinets, rackChunks(topology, gpuChunks(topology))),
      m_trays(m_layout.hosts, hostChunks(topology, gpuChunks(topology)), BoxMesh::Faces::OpenBack),
      m_rackTops(m_layout.rackTops, rackChunks(topology, gpuChunks(topology)), BoxMesh::Faces::TopOnly),
      m_chunkDetail(m_gpus.chunkCount(), FabricDetail::Boxes),
      m_chunkShown(m_gpus.chunkCount(), false),
      m_rackTopHost(topology.racks.size(), -1),
      m_rackSwitches(switchBoxes(topology, m_layout, true, m_rackSwitchIndex)),
      m_upperSwitchBoxes(switchBoxes(topology, m_layout, false, m_upperSwitchIndex)),
      m_upperSwitches(m_upperSwitchBoxes, BoxMesh::Faces::All, BoxMesh::Lit::Top, BoxMesh::Deferred{}),
      m_upperSwitchesFar(m_upperSwitchBoxes, BoxMesh::Faces::TopAndFront),
      m_replacedLines(vtkSmartPointer<vtkPolyData>::New()),
      m_highlightLines(vtkSmartPointer<vtkPolyData>::New()),
      m_markLines(vtkSmartPointer<vtkPolyData>::New()),
      m_gpuColours(m_layout.gpus.size(), kTrainingColour),
      m_rackSeverity(m_layout.racks.size(), 0),
      m_rackColours(m_layout.racks.size(), kTrainingColour) {
    m_rackSwitches.setColours(std::vector<Rgb>(m_rackSwitches.size(), kSwitchColour));
    m_upperSwitches.setColours(std::vector<Rgb>(m_upperSwitches.size(), kSwitchColour));
    m_upperSwitchesFar.setColours(std::vector<Rgb>(m_upperSwitchesFar.size(), kSwitchColour));
    m_rackLinks = buildLinks(m_layout.rackLinks);
    m_links = buildLinks(m_layout.links);
    m_nearLinks = buildLinks(m_layout.nearLinks);
    m_farLinks = buildLinks(m_layout.farLinks);
    m_fleetLinks = buildLinks(m_layout.fleetLinks);
    m_replaced = lineActor(m_replacedLines, kReplacedOutline, 2.0f);
    m_highlight = lineActor(m_highlightLines, kHighlightColour, 3.0f);
    m_highlight->VisibilityOff();
    m_marks = lineActor(m_markLines, kCauseMarkColour, 2.5f);
    m_marks->VisibilityOff();
    {
        const auto gpuStarts = gpuChunks(topology);
        const auto starts = rackChunks(topology, gpuStarts);
        const auto hostStarts = hostChunks(topology, gpuStarts);
        m_rowOf.resize(topology.racks.size());
        for (std::size_t r = 0; r < m_rowOf.size(); ++r) m_rowOf[r] = std::int64_t{topology.racks[r].zone} << 32 | topology.racks[r].row;
        for (std::size_t c = 0; c < starts.size(); ++c) {
            m_rowChunks.push_back({starts[c], c + 1 < starts.size() ? starts[c + 1] : topology.racks.size(), hostStarts[c],
                                   c + 1 < hostStarts.size() ? hostStarts[c + 1] : topology.hosts.size()});
            const RowChunk& chunk = m_rowChunks.back();
            const std::int32_t cluster = chunk.rackBegin < chunk.rackEnd ? clusterOfRack(topology, static_cast<std::int32_t>(chunk.rackBegin)) : -1;
            if (m_halls.empty() || cluster != m_halls.back().cluster) m_halls.push_back({cluster, c, c});
            ++m_halls.back().chunkEnd;
        }
        // Built when first needed: most of a hall is seen from afar, and seen whole as one.
        m_rows.resize(starts.size());
        m_hallRows.resize(starts.size());
        m_chunkInHall.assign(starts.size(), false);
        m_hallMeshes.resize(m_halls.size());
    }
    m_rackOfGpu.resize(topology.gpus.size());
    for (std::size_t g = 0; g < topology.gpus.size(); ++g) m_rackOfGpu[g] = topology.hosts[static_cast<std::size_t>(topology.gpus[g].host)].rack;
    for (std::size_t h = topology.hosts.size(); h-- > 0;) m_rackTopHost[static_cast<std::size_t>(topology.hosts[h].rack)] = static_cast<std::int32_t>(h);
    m_cabinets.setColours(std::vector<Rgb>(m_layout.cabinets.size(), kCabinetColour));
    m_trays.setColours(std::vector<Rgb>(m_layout.hosts.size(), kTrayColour));
    buildFloorLines();
    for (vtkActor* a : actors()) m_renderer->AddActor(a);
    m_labels = std::make_unique<SceneLabels>(m_layout, renderer);
}

FabricScene::~FabricScene() {
    for (vtkActor* a : actors()) m_renderer->RemoveActor(a);
    for (const auto* meshes : {&m_rows, &m_hallRows, &m_hallMeshes})
        for (const auto& rows : *meshes)
            if (rows) m_renderer->RemoveActor(rows->actor());
}

std::unique_ptr<RowMesh> FabricScene::rowMesh(std::size_t chunk, float texelsPerUnit) const {
    const RowChunk& c = m_rowChunks[chunk];
    auto mesh = std::make_unique<RowMesh>(m_topology, m_layout, m_rowOf, c.rackBegin, c.rackEnd, c.hostBegin, c.hostEnd, texelsPerUnit);
    mesh->actor()->VisibilityOff();
    return mesh;
}

RowMesh& FabricScene::rowsOf(std::size_t chunk) {
    const bool hall = m_chunkDetail[chunk] == FabricDetail::Hall;
    auto& mesh = hall ? m_hallRows[chunk] : m_rows[chunk];
    if (!mesh) {
        mesh = rowMesh(chunk, hall ? kHallTexelsPerUnit : kRowTexelsPerUnit);
        m_renderer->AddActor(mesh->actor());
    }
    return *mesh;
}

RowMesh& FabricScene::hallMesh(std::size_t hall) {
    auto& mesh = m_hallMeshes[hall];
    if (!mesh) {
        const RowChunk& first = m_rowChunks[m_halls[hall].chunkBegin];
        const RowChunk& last = m_rowChunks[m_halls[hall].chunkEnd - 1];
        mesh = std::make_unique<RowMesh>(m_topology, m_layout, m_rowOf, first.rackBegin, last.rackEnd, first.hostBegin, last.hostEnd, kHallTexelsPerUnit);
        mesh->actor()->VisibilityOff();
        m_renderer->AddActor(mesh->actor());
    }
    return *mesh;
}

std::vector<vtkActor*> FabricScene::actors() const {
    // In the order drawn: what is in front first, so that the depth test spares the shading
    // of what it hides (the fill is most of a frame on a software rasteriser). GPUs before
    // the cabinets they stand out of, the front zones (the last chunks) before the back ones.
    std::vector<vtkActor*> all;
    for (std::size_t c = m_chunkDetail.size(); c-- > 0;)
        for (const ChunkedBoxMesh* mesh : {&m_gpus, &m_trays})
            all.push_back(mesh->actors()[c]);
    for (std::size_t c = m_chunkDetail.size(); c-- > 0;) {
        all.push_back(m_rackTops.actors()[c]);
        all.push_back(m_cabinets.actors()[c]);
    }
    for (vtkActor* a : {m_rackSwitches.actor(), m_upperSwitches.actor(), m_upperSwitchesFar.actor(), m_floorLines.Get(), m_rackLinks.Get(), m_links.Get(), m_nearLinks.Get(), m_farLinks.Get(), m_fleetLinks.Get(),
                        m_replaced.Get(), m_highlight.Get(), m_marks.Get()})
        all.push_back(a);
    return all;
}

vtkSmartPointer<vtkActor> FabricScene::buildLinks(const std::vector<Segment3>& segments) const {
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (const Segment3& s : segments) {
        vtkIdType ids[2] = {points->InsertNextPoint(s.a.data()), points->InsertNextPoint(s.b.data())};
        lines->InsertNextCell(2, ids);
    }
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points);
    poly->SetLines(lines);
    return lineActor(poly, kLinkColour, 1.0f);
}

void FabricScene::colourSwitch(std::int32_t sw, Rgb colour) {
    const auto i = static_cast<std::size_t>(sw);
    if (m_rackSwitchIndex[i] >= 0) {
        m_rackSwitches.setColour(static_cast<std::size_t>(m_rackSwitchIndex[i]), colour);
        m_rackSwitches.commit();
    } else {
        for (BoxMesh* mesh : {&m_upperSwitches, &m_upperSwitchesFar}) {
            mesh->setColour(static_cast<std::size_t>(m_upperSwitchIndex[i]), colour);
            mesh->commit();
        }
    }
}

void FabricScene::setHallColours(const HallColours& colours) {
    auto colour = [](Rgb c) { return std::array<double, 3>{c[0] / 255.0, c[1] / 255.0, c[2] / 255.0}; };
    m_floorLines->GetProperty()->SetColor(colour(colours.floorLine).data());
    m_labels->setColours(colours);
    m_highlight->GetProperty()->SetColor(colour(colours.highlight).data());
}

void FabricScene::buildFloorLines() {
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    const Box3 f = floorBox(m_layout).front();
    // A grid of floor tiles, about 24 across the hall, on round numbers: each line is a pass
    // over the whole floor on a software rasteriser (40 cost an eighth of a frame).
    const float extent = std::max(f.max[0] - f.min[0], f.max[1] - f.min[1]);
    const float step = std::max(1.0f, std::round(extent / 24.0f));
    const float z = -0.04f;
    for (float x = std::ceil(f.min[0] / step) * step; x <= f.max[0]; x += step) {
        vtkIdType ids[2] = {points->InsertNextPoint(x, f.min[1], z), points->InsertNextPoint(x, f.max[1], z)};
        lines->InsertNextCell(2, ids);
    }
    for (float y = std::ceil(f.min[1] / step) * step; y <= f.max[1]; y += step) {
        vtkIdType ids[2] = {points->InsertNextPoint(f.min[0], y, z), points->InsertNextPoint(f.max[0], y, z)};
        lines->InsertNextCell(2, ids);
    }
    for (const Box3& zone : m_layout.zones)
        appendLoop(points, lines, {{{zone.min[0], zone.min[1], -0.02f}, {zone.max[0], zone.min[1], -0.02f}, {zone.max[0], zone.max[1], -0.02f}, {zone.min[0], zone.max[1], -0.02f}}});
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points);
    poly->SetLines(lines);
    m_floorLines = lineActor(poly, kFloorLineColour, 1.0f);
}

void FabricScene::showStates(std::span<const GpuVisual> states, std::span<const std::int32_t> flashing,
                             std::int32_t failedSwitch) {
    const std::size_t n = std::min(states.size(), m_gpuColours.size());
    m_stateRank.resize(n);
    const StatePalette& palette = activeStatePalette();
    for (std::size_t g = 0; g < n; ++g) {
        m_gpuColours[g] = gpuColour(states[g], palette);
        m_stateRank[g] = gpuSeverity(states[g]);
    }
    applyColours(states.first(n), m_stateRank, flashing, failedSwitch);
}

void FabricScene::showColours(std::span<const Rgb> colours, std::span<const int> rank, std::span<const GpuVisual> states,
                              std::span<const std::int32_t> flashing, std::int32_t failedSwitch) {
    const std::size_t n = std::min({colours.size(), rank.size(), states.size(), m_gpuColours.size()});
    std::copy_n(colours.begin(), n, m_gpuColours.begin());
    applyColours(states.first(n), rank.first(n), flashing, failedSwitch);
}

void FabricScene::applyColours(std::span<const GpuVisual> states, std::span<const int> rank, std::span<const std::int32_t> flashing,
                               std::int32_t failedSwitch) {
    const std::size_t n = states.size();
    std::fill(m_rackSeverity.begin(), m_rackSeverity.end(), -1);
    std::size_t replaced = 0;  // counted here, not in a pass of its own over every GPU
    for (std::size_t g = 0; g < n; ++g) {
        replaced += states[g].replaced ? 1 : 0;
        const auto rack = static_cast<std::size_t>(m_rackOfGpu[g]);
        if (rank[g] > m_rackSeverity[rack]) {
            m_rackSeverity[rack] = rank[g];
            m_rackColours[rack] = m_gpuColours[g];
        }
    }
    for (std::int32_t g : flashing) {
        if (g < 0 || static_cast<std::size_t>(g) >= n) continue;
        m_gpuColours[static_cast<std::size_t>(g)] = activeStatePalette().flash;
        m_rackColours[static_cast<std::size_t>(m_topology.hosts[static_cast<std::size_t>(m_topology.gpus[static_cast<std::size_t>(g)].host)].rack)] = activeStatePalette().flash;
    }
    // Only the meshes on show are recoloured; setChunkDetail brings the others up to date.
    for (std::size_t c = 0; c < m_chunkDetail.size(); ++c)
        if (m_chunkShown[c]) recolourChunk(c);
    for (std::size_t h = 0; h < m_halls.size(); ++h)
        if (m_halls[h].whole) m_hallMeshes[h]->setColours(m_gpuColours, m_rackColours);
    if (failedSwitch != m_failedSwitchShown) {
        if (m_failedSwitchShown >= 0) colourSwitch(m_failedSwitchShown, kSwitchColour);
        if (failedSwitch >= 0 && static_cast<std::size_t>(failedSwitch) < m_rackSwitchIndex.size()) colourSwitch(failedSwitch, kFailedColour);
        m_failedSwitchShown = failedSwitch;
    }
    outlineReplaced(states, replaced);
}

void FabricScene::outlineReplaced(std::span<const GpuVisual> states, std::size_t count) {
    // Replacements only accumulate over time, so the count names the set.
    if (count == m_replacedShown) return;
    m_replacedShown = count;
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (std::size_t g = 0; g < states.size(); ++g) {
        if (!states[g].replaced) continue;
        const Box3 b = grown(m_layout.gpus[g], 0.08f);
        const float z = b.max[2];
        appendLoop(points, lines, {{{b.min[0], b.min[1], z}, {b.max[0], b.min[1], z}, {b.max[0], b.max[1], z}, {b.min[0], b.max[1], z}}});
    }
    m_replacedLines->SetPoints(points);
    m_replacedLines->SetLines(lines);
    m_replacedLines->Modified();
}

void FabricScene::setDetail(FabricDetail detail) { applyDetails(std::vector<FabricDetail>(m_chunkDetail.size(), detail)); }

void FabricScene::setDetails(const std::function<FabricDetail(const Box3&)>& choose) {
    std::vector<FabricDetail> details(m_chunkDetail.size());
    for (std::size_t c = 0; c < details.size(); ++c) details[c] = choose(m_gpus.chunkBounds(c));
    applyDetails(details);
}

void FabricScene::applyDetails(const std::vector<FabricDetail>& details) {
    for (std::size_t h = 0; h < m_halls.size(); ++h) {
        Hall& hall = m_halls[h];
        // A hall seen whole from afar is one mesh: a draw per hall instead of one per chunk,
        // which is most of a far frame's cost on a software rasteriser.
        const bool whole = std::all_of(details.begin() + static_cast<std::ptrdiff_t>(hall.chunkBegin), details.begin() + static_cast<std::ptrdiff_t>(hall.chunkEnd),
                                       [](FabricDetail d) { return d == FabricDetail::Hall; });
        for (std::size_t c = hall.chunkBegin; c < hall.chunkEnd; ++c) setChunkDetail(c, details[c], whole);
        if (whole == hall.whole) continue;
        hall.whole = whole;
        if (whole) {
            hallMesh(h).actor()->VisibilityOn();
            m_hallMeshes[h]->setColours(m_gpuColours, m_rackColours);
        } else if (m_hallMeshes[h]) {
            m_hallMeshes[h]->actor()->VisibilityOff();
        }
    }
    showFinestDetail();
}

void FabricScene::setChunkDetail(std::size_t chunk, FabricDetail detail, bool inHallMesh) {
    if (m_chunkShown[chunk] && m_chunkDetail[chunk] == detail && m_chunkInHall[chunk] == inHallMesh) return;
    if (m_chunkShown[chunk] && m_chunkDetail[chunk] != FabricDetail::Boxes && !m_chunkInHall[chunk]) rowsOf(chunk).actor()->VisibilityOff();
    m_chunkShown[chunk] = true;
    m_chunkDetail[chunk] = detail;
    m_chunkInHall[chunk] = inHallMesh;
    const bool boxes = detail == FabricDetail::Boxes;
    m_gpus.setChunkVisibility(chunk, boxes);
    m_trays.setChunkVisibility(chunk, boxes);
    m_cabinets.setChunkVisibility(chunk, boxes);
    m_rackTops.setChunkVisibility(chunk, boxes);  // a row block's lids show the same
    if (!boxes && !inHallMesh) rowsOf(chunk).actor()->VisibilityOn();
    recolourChunk(chunk);
}

void FabricScene::recolourChunk(std::size_t chunk) {
    if (m_chunkDetail[chunk] == FabricDetail::Boxes) {
        m_gpus.setChunkColours(chunk, m_gpuColours);
        m_rackTops.setChunkColours(chunk, m_rackColours);
    } else if (!m_chunkInHall[chunk]) {
        rowsOf(chunk).setColours(m_gpuColours, m_rackColours);
    }  // else its hall's mesh shows it
}

void FabricScene::showFinestDetail() {
    m_detail = m_chunkDetail.empty() ? FabricDetail::Boxes : *std::min_element(m_chunkDetail.begin(), m_chunkDetail.end());
    // Where every rack is a speck of a block, rack switches and their cables are specks over them.
    m_rackSwitches.actor()->SetVisibility(m_detail != FabricDetail::Hall);
    // Thousands of switches far away: a face fewer than a box's five would set up less, and
    // from the front and above only the tops and fronts show anyway.
    m_upperSwitches.setVisible(m_detail != FabricDetail::Hall);
    m_upperSwitchesFar.setVisible(m_detail == FabricDetail::Hall);
    // Close up, the uplinks of every rack would cross the GPUs in front of them.
    m_rackLinks->SetVisibility(m_detail == FabricDetail::Rows);
    // A fat tree's rack cabling: a line per rack and leaf is a wall from afar, one per unit there.
    m_nearLinks->SetVisibility(m_detail != FabricDetail::Hall);
    // A fleet seen whole: each hall's cables merged on a coarse grid, in their stead.
    const bool fleetWhole = m_detail == FabricDetail::Hall && !m_layout.fleetLinks.empty();
    m_links->SetVisibility(!fleetWhole);
    m_farLinks->SetVisibility(m_detail == FabricDetail::Hall && !fleetWhole);
    m_fleetLinks->SetVisibility(fleetWhole);
}

ComponentRef FabricScene::pick(const std::array<double, 3>& origin, const std::array<double, 3>& direction) const {
    ComponentRef best;
    double bestT = std::numeric_limits<double>::max();
    auto consider = [&](const std::vector<Box3>& boxes, ComponentKind kind) {
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (auto t = hit(boxes[i], origin, direction); t && *t < bestT) {
                bestT = *t;
                best = {kind, static_cast<std::int32_t>(i)};
            }
    };
    consider(m_layout.switches, ComponentKind::Switch);
    // Every level of detail draws each GPU where its box is (far away as texels on the
    // row's front), so a click on one names it.
    consider(m_layout.gpus, ComponentKind::Gpu);
    // A host's tray reaches the rack's front under its GPUs: a click on it names the host.
    consider(m_layout.hosts, ComponentKind::Host);
    // The cabinets hide what is behind them: a click on one (its lid, from above) names the
    // host in its top slot.
    for (std::size_t r = 0; r < m_layout.cabinets.size(); ++r)
        if (auto t = hit(m_layout.cabinets[r], origin, direction); t && *t < bestT) {
            bestT = *t;
            best = m_rackTopHost[r] >= 0 ? ComponentRef{ComponentKind::Host, m_rackTopHost[r]} : ComponentRef{};
        }
    return best;
}

std::optional<Box3> FabricScene::boxOf(const ComponentRef& part) const {
    auto at = [&](const std::vector<Box3>& boxes) -> std::optional<Box3> {
        if (part.index < 0 || static_cast<std::size_t>(part.index) >= boxes.size()) return std::nullopt;
        return boxes[static_cast<std::size_t>(part.index)];
    };
    switch (part.kind) {
        case ComponentKind::Gpu: return at(m_layout.gpus);
        case ComponentKind::Host: return at(m_layout.hosts);
        case ComponentKind::Switch: return at(m_layout.switches);
        default: return std::nullopt;
    }
}

void FabricScene::highlight(const ComponentRef& part) {
    const auto box = boxOf(part);
    m_highlight->SetVisibility(box.has_value());
    if (!box) return;
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    appendBoxEdges(points, lines, grown(*box, 0.15f));
    m_highlightLines->SetPoints(points);
    m_highlightLines->SetLines(lines);
    m_highlightLines->Modified();
}

void FabricScene::markRacks(const std::vector<std::int32_t>& racks) {
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (std::int32_t r : racks)
        if (r >= 0 && static_cast<std::size_t>(r) < m_layout.cabinets.size())
            appendBoxEdges(points, lines, grown(m_layout.cabinets[static_cast<std::size_t>(r)], 0.2f));
    m_markLines->SetPoints(points);
    m_markLines->SetLines(lines);
    m_markLines->Modified();
    m_marks->SetVisibility(lines->GetNumberOfCells() > 0);
}

}  // namespace faultline
