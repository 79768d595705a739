#pragma once
// The fabric as VTK actors: GPU boxes, rack blocks for far views, switches, links, labels,
// outlines of replaced GPUs and the highlight of a picked part. Knows nothing of Qt; the
// FabricView drives it for the current instant.
#include "views/fabric/box_mesh.h"
#include "views/fabric/chunked_box_mesh.h"
#include "views/fabric/fabric_detail.h"
#include "views/fabric/row_mesh.h"
#include "views/fabric/fabric_layout.h"
#include "views/fabric/scene_labels.h"
#include "model/run.h"

#include <vtkSmartPointer.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkProp;
class vtkRenderer;

namespace faultline {

struct HallColours;

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
    // The same with colours chosen by the caller (View > Colour By a metric): a rack block and
    // lid take the colour of its GPU of highest `rank`; `states` outline replaced GPUs.
    void showColours(std::span<const Rgb> colours, std::span<const int> rank, std::span<const GpuVisual> states,
                     std::span<const std::int32_t> flashing, std::int32_t failedSwitch);
    // Each GPU's colour as last shown (flashes included).
    const std::vector<Rgb>& gpuColours() const { return m_gpuColours; }
    // One level of detail everywhere (pinned by a benchmark), or each run of racks its own,
    // from how large a GPU pitch is drawn there (the nearer racks finer than the far ones).
    void setDetail(FabricDetail detail);
    void setDetails(const std::function<FabricDetail(const Box3& chunkBounds)>& choose);
    // The finest level drawn anywhere in the view.
    FabricDetail detail() const { return m_detail; }

    // The part whose box a ray from `origin` along `direction` hits first.
    ComponentRef pick(const std::array<double, 3>& origin, const std::array<double, 3>& direction) const;
    void highlight(const ComponentRef& part);
    // The floor's grid, the zone names, the labels and the selection outline, for the theme.
    void setHallColours(const HallColours& colours);
    std::optional<Box3> boxOf(const ComponentRef& part) const;
    // Outlines these racks at once (the hardware of every incident of one root cause, as the
    // charts' cause filter names them): one outline a rack reads from any distance.
    void markRacks(const std::vector<std::int32_t>& racks);
    // Shows the floating labels that fit the camera now, without overlap (scene_labels.h).
    void placeLabels(const std::vector<ScreenRect>& blocked, double scale) { m_labels->place(blocked, scale); }
    const SceneLabels& labels() const { return *m_labels; }

private:
    vtkSmartPointer<vtkActor> buildLinks(const std::vector<Segment3>& segments) const;
    void colourSwitch(std::int32_t sw, Rgb colour);
    void applyDetails(const std::vector<FabricDetail>& details);  // by chunk
    // `inHallMesh`: the chunk is drawn by its hall's one mesh (the whole hall is far away).
    void setChunkDetail(std::size_t chunk, FabricDetail detail, bool inHallMesh);
    RowMesh& hallMesh(std::size_t hall);
    std::unique_ptr<RowMesh> rowMesh(std::size_t chunk, float texelsPerUnit) const;
    RowMesh& rowsOf(std::size_t chunk);  // the row blocks chunk c shows at its detail
    void recolourChunk(std::size_t chunk);
    void showFinestDetail();
    std::vector<vtkActor*> actors() const;
    void buildFloorLines();
    // `count`: how many of `states` are replaced.
    void outlineReplaced(std::span<const GpuVisual> states, std::size_t count);
    void applyColours(std::span<const GpuVisual> states, std::span<const int> rank, std::span<const std::int32_t> flashing, std::int32_t failedSwitch);

    const Topology& m_topology;
    vtkRenderer* m_renderer;
    FabricLayout m_layout;
    ChunkedBoxMesh m_gpus;
    // Further away, chunk c's racks as rows of textured blocks: finely textured or coarsely
    // for the whole hall (each built when first shown).
    struct RowChunk {
        std::size_t rackBegin, rackEnd, hostBegin, hostEnd;
    };
    std::vector<RowChunk> m_rowChunks;
    std::vector<std::int64_t> m_rowOf;  // rack -> its zone and row
    std::vector<std::unique_ptr<RowMesh>> m_rows;
    std::vector<std::unique_ptr<RowMesh>> m_hallRows;
    // The chunks of each hall (a fleet's cluster; the whole floor otherwise), and the hall
    // as one mesh of rows where every chunk of it is at the farthest level.
    struct Hall {
        std::int32_t cluster = 0;
        std::size_t chunkBegin = 0, chunkEnd = 0;
        bool whole = false;  // its one mesh on show
    };
    std::vector<Hall> m_halls;
    std::vector<std::unique_ptr<RowMesh>> m_hallMeshes;  // by hall, built when first shown
    std::vector<bool> m_chunkInHall;
    ChunkedBoxMesh m_cabinets;                     // chunked as the racks
    ChunkedBoxMesh m_trays;                        // chunk c holds the hosts of GPU chunk c
    ChunkedBoxMesh m_rackTops;                     // rack lids' front strips coloured by their worst GPU, chunked as the racks
    // The floor is the background itself (a textured floor was a full-window pass a frame
    // on a software rasteriser): only its grid and the zones' outlines are drawn.
    vtkSmartPointer<vtkActor> m_floorLines;
    std::vector<FabricDetail> m_chunkDetail;
    std::vector<bool> m_chunkShown;  // false until the first setDetail(s): nothing drawn, nothing built
    std::vector<std::int32_t> m_rackOfGpu;        // gpu -> its rack, looked up for every GPU every frame
    std::vector<std::int32_t> m_rackTopHost;      // rack -> the host in its top slot, or -1
    std::vector<std::int32_t> m_rackSwitchIndex;   // switch -> box in m_rackSwitches, or -1
    std::vector<std::int32_t> m_upperSwitchIndex;  // switch -> box in m_upperSwitches, or -1
    BoxMesh m_rackSwitches;                        // hidden from far away, like the GPUs
    std::vector<Box3> m_upperSwitchBoxes;
    BoxMesh m_upperSwitches;     // every face, nearer than the farthest level (built when first shown)
    BoxMesh m_upperSwitchesFar;  // their tops and fronts only, at the farthest level
    vtkSmartPointer<vtkActor> m_rackLinks;
    vtkSmartPointer<vtkActor> m_links;
    vtkSmartPointer<vtkActor> m_nearLinks;  // FabricLayout::nearLinks and farLinks
    vtkSmartPointer<vtkActor> m_farLinks;
    vtkSmartPointer<vtkActor> m_fleetLinks;  // FabricLayout::fleetLinks
    vtkSmartPointer<vtkActor> m_replaced;
    vtkSmartPointer<vtkPolyData> m_replacedLines;
    vtkSmartPointer<vtkActor> m_highlight;
    vtkSmartPointer<vtkPolyData> m_highlightLines;
    vtkSmartPointer<vtkActor> m_marks;  // markRacks
    vtkSmartPointer<vtkPolyData> m_markLines;
    std::unique_ptr<SceneLabels> m_labels;
    std::vector<Rgb> m_gpuColours;
    std::vector<int> m_rackSeverity;
    std::vector<int> m_stateRank;
    std::vector<Rgb> m_rackColours;
    std::size_t m_replacedShown = static_cast<std::size_t>(-1);
    std::int32_t m_failedSwitchShown = -1;
    FabricDetail m_detail = FabricDetail::Boxes;
};

}  // namespace faultline
