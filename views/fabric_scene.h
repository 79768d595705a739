#pragma once
// The fabric as VTK actors: GPU boxes, rack blocks for far views, switches, links, labels,
// outlines of replaced GPUs and the highlight of a picked part. Knows nothing of Qt; the
// FabricView drives it for the current instant.
#include "box_mesh.h"
#include "fabric_layout.h"
#include "model/run.h"

#include <vtkSmartPointer.h>

#include <memory>
#include <optional>
#include <span>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkProp;
class vtkRenderer;

namespace faultline {

class FabricScene {
public:
    FabricScene(const Topology& topology, vtkRenderer* renderer);
    ~FabricScene();
    FabricScene(const FabricScene&) = delete;
    FabricScene& operator=(const FabricScene&) = delete;

    const FabricLayout& layout() const { return m_layout; }

    // Colours every GPU (and every rack block by its worst GPU) for one instant. `flashing`
    // GPUs failed a moment ago; `failedSwitch` is a switch down at this instant, or -1.
    void showStates(std::span<const GpuVisual> states, std::span<const std::int32_t> flashing, std::int32_t failedSwitch);
    // Far away, racks are drawn as single blocks instead of their GPUs.
    void setRacksAsBlocks(bool blocks);
    bool racksAsBlocks() const { return m_racksAsBlocks; }

    // The part whose box a ray from `origin` along `direction` hits first.
    ComponentRef pick(const std::array<double, 3>& origin, const std::array<double, 3>& direction) const;
    void highlight(const ComponentRef& part);
    std::optional<Box3> boxOf(const ComponentRef& part) const;

private:
    void buildLinks();
    void buildLabels(vtkRenderer* renderer);
    void outlineReplaced(std::span<const GpuVisual> states);

    const Topology& m_topology;
    vtkRenderer* m_renderer;
    FabricLayout m_layout;
    BoxMesh m_gpus;
    BoxMesh m_racks;
    BoxMesh m_switches;
    vtkSmartPointer<vtkActor> m_links;
    vtkSmartPointer<vtkActor> m_replaced;
    vtkSmartPointer<vtkPolyData> m_replacedLines;
    vtkSmartPointer<vtkActor> m_highlight;
    vtkSmartPointer<vtkPolyData> m_highlightLines;
    std::vector<vtkSmartPointer<vtkProp>> m_labels;
    std::vector<Rgb> m_gpuColours;
    std::vector<int> m_rackSeverity;
    std::vector<Rgb> m_rackColours;
    std::size_t m_replacedShown = static_cast<std::size_t>(-1);
    std::int32_t m_failedSwitchShown = -1;
    bool m_racksAsBlocks = false;
};

}  // namespace faultline
