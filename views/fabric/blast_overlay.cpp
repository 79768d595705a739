#include "views/fabric/blast_overlay.h"

#include "views/gpu_palette.h"
#include "views/fabric/line_geometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCoordinate.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <unordered_set>

namespace faultline {

namespace {

// Okabe-Ito reddish purple and bluish green: apart from the state colours (red failed,
// orange straggling, blue checkpointing) and from each other for colour-blind eyes too.
constexpr Rgb kCutOffColour{204, 121, 167};
constexpr Rgb kPathUpColour{0, 158, 115};
// Outlining every GPU of a zone would cost more than the zone; past this, racks only.
constexpr std::size_t kMaxGpuOutlines = 4096;

void segment(vtkPoints* points, vtkCellArray* cells, const std::array<float, 3>& a, const std::array<float, 3>& b) {
    vtkIdType ids[2] = {points->InsertNextPoint(a.data()), points->InsertNextPoint(b.data())};
    cells->InsertNextCell(2, ids);
}

void setLines(vtkPolyData* poly, vtkPoints* points, vtkCellArray* cells) {
    poly->SetPoints(points);
    poly->SetLines(cells);
    poly->Modified();
}

}  // namespace

BlastOverlay::BlastOverlay(const Topology& topology, const FabricLayout& layout, vtkRenderer* renderer)
    : m_topology(topology),
      m_layout(layout),
      m_renderer(renderer),
      m_cutLines(vtkSmartPointer<vtkPolyData>::New()),
      m_pathLines(vtkSmartPointer<vtkPolyData>::New()),
      m_label(vtkSmartPointer<vtkTextActor>::New()) {
    m_cut = lineActor(m_cutLines, kCutOffColour, 3.0f);
    m_path = lineActor(m_pathLines, kPathUpColour, 3.0f);
    m_cut->VisibilityOff();
    m_path->VisibilityOff();
    m_label->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    m_label->GetTextProperty()->SetFontSize(18);
    m_label->GetTextProperty()->SetBold(true);
    m_label->GetTextProperty()->SetColor(1, 1, 1);
    m_label->GetTextProperty()->SetBackgroundColor(kCutOffColour[0] / 255.0 * 0.6, kCutOffColour[1] / 255.0 * 0.6, kCutOffColour[2] / 255.0 * 0.6);
    m_label->GetTextProperty()->SetBackgroundOpacity(0.9);
    m_label->GetTextProperty()->SetFrame(false);
    m_label->GetTextProperty()->SetJustificationToCentered();
    m_label->GetTextProperty()->SetVerticalJustificationToBottom();
    m_label->PickableOff();
    m_label->VisibilityOff();
    m_renderer->AddActor(m_cut);
    m_renderer->AddActor(m_path);
    m_renderer->AddViewProp(m_label);
}

BlastOverlay::~BlastOverlay() {
    m_renderer->RemoveActor(m_cut);
    m_renderer->RemoveActor(m_path);
    m_renderer->RemoveViewProp(m_label);
    for (const auto& label : m_alsoLabels) m_renderer->RemoveViewProp(label);
}

std::array<float, 3> BlastOverlay::endPoint(const LinkEnd& end) const {
    if (end.kind == NodeKind::Switch) {
        const Box3& b = m_layout.switches[static_cast<std::size_t>(end.index)];
        return {(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, b.max[2]};
    }
    // A NIC sits with its GPU (one rail per GPU); without one, at its host's tray.
    const std::int32_t gpu = m_topology.gpuOfNic(end.index);
    const Box3& b = gpu >= 0 ? m_layout.gpus[static_cast<std::size_t>(gpu)]
                             : m_layout.hosts[static_cast<std::size_t>(m_topology.nics[static_cast<std::size_t>(end.index)].host)];
    return {(b.min[0] + b.max[0]) / 2, b.min[1], b.max[2]};
}

void BlastOverlay::show(const BlastRadius& r, const std::vector<std::int32_t>& alsoFailed) {
    const bool on = r.part.kind != ComponentKind::None && !(r.empty() && r.pathUp.empty());
    m_cut->SetVisibility(on);
    m_path->SetVisibility(on);
    m_label->SetVisibility(on);
    for (const auto& label : m_alsoLabels) m_renderer->RemoveViewProp(label);
    m_alsoLabels.clear();
    m_alsoGpus.clear();
    m_part = on ? r.part : ComponentRef{};
    if (!on) return;
    // The part's fellow failed GPUs, each named as it is (only beside a failed GPU).
    if (r.part.kind == ComponentKind::Gpu)
        for (std::int32_t g : alsoFailed) {
            if (g < 0 || static_cast<std::size_t>(g) >= m_layout.gpus.size() || g == r.part.index) continue;
            auto label = vtkSmartPointer<vtkTextActor>::New();
            label->GetTextProperty()->ShallowCopy(m_label->GetTextProperty());
            label->GetPositionCoordinate()->SetCoordinateSystemToWorld();
            label->PickableOff();
            label->SetInput((m_topology.gpuName(g) + " failed").c_str());
            const Box3& at = m_layout.gpus[static_cast<std::size_t>(g)];
            label->GetPositionCoordinate()->SetValue((at.min[0] + at.max[0]) / 2, (at.min[1] + at.max[1]) / 2, at.max[2] + 0.3);
            m_renderer->AddViewProp(label);
            m_alsoLabels.push_back(label);
            m_alsoGpus.push_back(g);
        }
    auto cutPoints = vtkSmartPointer<vtkPoints>::New();
    auto cutCells = vtkSmartPointer<vtkCellArray>::New();
    std::unordered_set<std::int32_t> wholeRack(r.racks.begin(), r.racks.end());
    for (std::int32_t rack : r.racks) appendBoxEdges(cutPoints, cutCells, grown(m_layout.racks[static_cast<std::size_t>(rack)], 0.25f));
    std::size_t outlined = 0;
    for (std::int32_t g : r.gpus) {
        const std::int32_t rack = m_topology.hosts[static_cast<std::size_t>(m_topology.gpus[static_cast<std::size_t>(g)].host)].rack;
        if (wholeRack.count(rack) || ++outlined > kMaxGpuOutlines) continue;
        appendBoxEdges(cutPoints, cutCells, grown(m_layout.gpus[static_cast<std::size_t>(g)], 0.06f));
    }
    const std::unordered_set<std::int32_t> onPath(r.pathUp.begin(), r.pathUp.end());
    for (std::int32_t l : r.links) {
        if (onPath.count(l)) continue;  // drawn as the way up
        const Link& link = m_topology.links[static_cast<std::size_t>(l)];
        segment(cutPoints, cutCells, endPoint(link.lower), endPoint(link.upper));
    }
    setLines(m_cutLines, cutPoints, cutCells);

    auto pathPoints = vtkSmartPointer<vtkPoints>::New();
    auto pathCells = vtkSmartPointer<vtkCellArray>::New();
    for (std::int32_t l : r.pathUp) {
        const Link& link = m_topology.links[static_cast<std::size_t>(l)];
        segment(pathPoints, pathCells, endPoint(link.lower), endPoint(link.upper));
    }
    for (std::int32_t s : r.switchesUp) appendBoxEdges(pathPoints, pathCells, grown(m_layout.switches[static_cast<std::size_t>(s)], 0.1f));
    setLines(m_pathLines, pathPoints, pathCells);

    std::string text = partName(m_topology, r.part);
    if (r.part.kind == ComponentKind::Link) text = "cable " + text;
    if (r.part.kind == ComponentKind::Gpu) text += " failed";  // an incident's GPU: it cuts off only itself
    else text += r.gpus.empty() ? ": cuts off no GPU" : ": cuts off " + std::to_string(r.gpus.size()) + (r.gpus.size() == 1 ? " GPU" : " GPUs");
    // What a fat tree's spine takes instead: bandwidth; a rail leaf: one NIC of each host.
    if (r.rail >= 0 && !r.gpus.empty()) text += " (NIC " + std::to_string(r.rail) + " of each host)";
    if (const std::string share = uplinkShareText(m_topology, r, false); !share.empty() && r.gpus.empty()) text += "; " + share;
    m_label->SetInput(text.c_str());
    const auto boxes = scope(r);
    const Box3& at = boxes.front();  // the part itself
    m_label->GetPositionCoordinate()->SetValue((at.min[0] + at.max[0]) / 2, (at.min[1] + at.max[1]) / 2, at.max[2] + 0.3);
}

void BlastOverlay::showGpuLabelsWhere(const std::function<bool(std::int32_t gpu)>& failed) {
    if (m_part.kind != ComponentKind::Gpu) return;
    m_label->SetVisibility(failed(m_part.index));
    for (std::size_t i = 0; i < m_alsoLabels.size(); ++i) m_alsoLabels[i]->SetVisibility(failed(m_alsoGpus[i]));
}

std::string BlastOverlay::label() const { return m_label->GetVisibility() && m_label->GetInput() ? m_label->GetInput() : ""; }

std::vector<std::string> BlastOverlay::labels() const {
    std::vector<std::string> out;
    if (const std::string part = label(); !part.empty()) out.push_back(part);
    for (const auto& l : m_alsoLabels)
        if (l->GetVisibility() && l->GetInput()) out.emplace_back(l->GetInput());
    return out;
}

std::vector<Box3> BlastOverlay::scope(const BlastRadius& r) const {
    std::vector<Box3> out;
    const auto i = static_cast<std::size_t>(r.part.index);
    switch (r.part.kind) {
        case ComponentKind::Switch: out.push_back(m_layout.switches[i]); break;
        case ComponentKind::Host: out.push_back(m_layout.hosts[i]); break;
        case ComponentKind::Gpu: out.push_back(m_layout.gpus[i]); break;
        case ComponentKind::Nic: {
            const auto p = endPoint({NodeKind::Nic, r.part.index});
            out.push_back({p, p});
            break;
        }
        case ComponentKind::Link: {
            const Link& l = m_topology.links[i];
            const auto a = endPoint(l.lower), b = endPoint(l.upper);
            Box3 box;
            for (std::size_t k = 0; k < 3; ++k) box.min[k] = std::min(a[k], b[k]), box.max[k] = std::max(a[k], b[k]);
            out.push_back(box);
            break;
        }
        case ComponentKind::None: return out;
    }
    // What it cuts off, and for a switch every rack below it: a cluster switch with a
    // redundant peer cuts off nothing, yet its scope is its zone.
    std::vector<char> rackIn(m_topology.racks.size(), 0);
    for (std::int32_t rack : r.racks) rackIn[static_cast<std::size_t>(rack)] = 1;
    if (r.part.kind == ComponentKind::Switch)
        for (std::int32_t g : m_topology.gpusBelowSwitch(r.part.index))
            rackIn[static_cast<std::size_t>(m_topology.hosts[static_cast<std::size_t>(m_topology.gpus[static_cast<std::size_t>(g)].host)].rack)] = 1;
    for (std::size_t rack = 0; rack < rackIn.size(); ++rack)
        if (rackIn[rack]) out.push_back(m_layout.racks[rack]);
    for (std::int32_t g : r.gpus) out.push_back(m_layout.gpus[static_cast<std::size_t>(g)]);
    // The first tier up, where the path starts; the aggregation tier spans the whole hall
    // and would leave the scope a speck.
    for (std::int32_t s : r.switchesUp)
        if (m_topology.switches[static_cast<std::size_t>(s)].tier != SwitchTier::Aggregation)
            out.push_back(m_layout.switches[static_cast<std::size_t>(s)]);
    return out;
}

}  // namespace faultline
