#pragma once
// The blast radius of a part drawn over the fabric: the racks and GPUs it cuts off
// outlined, the cables it puts out of service, the way up the fabric from it, and a label
// at the part ("rtsw-r0012: cuts off 16 GPUs"). Knows nothing of Qt.
#include "analysis/blast_radius.h"
#include "views/fabric/fabric_layout.h"

#include <vtkSmartPointer.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace faultline {

class BlastOverlay {
public:
    BlastOverlay(const Topology& topology, const FabricLayout& layout, vtkRenderer* renderer);
    ~BlastOverlay();
    BlastOverlay(const BlastOverlay&) = delete;
    BlastOverlay& operator=(const BlastOverlay&) = delete;

    // Draws this radius; an empty part hides the overlay. `alsoFailed`: GPUs that failed with a
    // failed GPU part (a hang's other culprits), each labelled "NAME failed" as the part is.
    void show(const BlastRadius& radius, const std::vector<std::int32_t>& alsoFailed = {});
    // The part (first), what it cuts off, for a switch every rack below it, and the
    // switches of its path up below the aggregation tier: what a camera frames to show the
    // whole affected scope.
    std::vector<Box3> scope(const BlastRadius& radius) const;
    // A failed GPU's label ("NAME failed"), the part's and each of `alsoFailed`'s, is shown only
    // while `failed` says the GPU is: the replay past its repair leaves no stale label.
    void showGpuLabelsWhere(const std::function<bool(std::int32_t gpu)>& failed);
    // The label drawn at the part, or empty when nothing is shown.
    std::string label() const;
    // Every label shown: the part's, then each of `alsoFailed`'s.
    std::vector<std::string> labels() const;

private:
    std::array<float, 3> endPoint(const LinkEnd& end) const;

    const Topology& m_topology;
    const FabricLayout& m_layout;
    vtkRenderer* m_renderer;
    vtkSmartPointer<vtkPolyData> m_cutLines;
    vtkSmartPointer<vtkPolyData> m_pathLines;
    vtkSmartPointer<vtkActor> m_cut;
    vtkSmartPointer<vtkActor> m_path;
    vtkSmartPointer<vtkTextActor> m_label;
    std::vector<vtkSmartPointer<vtkTextActor>> m_alsoLabels;
    ComponentRef m_part;                  // what show() was last given
    std::vector<std::int32_t> m_alsoGpus;  // the GPU each of m_alsoLabels names
};

}  // namespace faultline
