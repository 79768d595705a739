#pragma once
// Far away, each row of racks as one long block: four quads a row instead of boxes for every
// GPU, tray and cabinet. On a software rasteriser a far view is bound by how many tiny
// triangles it sets up, not by how many pixels they cover, so the detail goes into a texture:
// the row's front is a picture of its racks (cabinets, trays and one patch of texels per GPU,
// in the GPU's colour), its top the racks' lids in their worst GPU's colour. Each GPU stays
// its own visible element wherever it covers a pixel or two, and a failed GPU marks its rack's
// lid at any distance.
#include "views/fabric/fabric_layout.h"
#include "views/gpu_palette.h"

#include <vtkSmartPointer.h>

#include <span>
#include <vector>

class vtkActor;
class vtkImageData;

namespace faultline {

class RowMesh {
public:
    // Racks [rackBegin, rackEnd) and hosts [hostBegin, hostEnd) of the topology, placed as
    // `layout` places them; consecutive racks with the same `rowOf` form a row. Its picture
    // has `texelsPerUnit` texels per GPU pitch (fewer where a texture would grow too large).
    RowMesh(const Topology& topology, const FabricLayout& layout, const std::vector<std::int64_t>& rowOf, std::size_t rackBegin,
            std::size_t rackEnd, std::size_t hostBegin, std::size_t hostEnd, float texelsPerUnit);

    vtkActor* actor() const;
    // Colours of every GPU and every rack of the layout (indexed as in the topology); takes
    // effect at the next render. Only a change of colour touches the texture.
    void setColours(std::span<const Rgb> gpuColours, std::span<const Rgb> rackColours);

private:
    struct Row {
        std::size_t firstRack = 0, count = 0;
        float x0 = 0;  // the row's left end, where its texels start
        int top = 0;   // the image line of the row's lids; its front is the lines below
    };
    // Texels [x0, x1) x [y0, y1) of the image, for one GPU or rack.
    struct Patch {
        int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    };
    void paint(const Patch& patch, Rgb colour, int shadePercent);

    std::vector<Row> m_rows;
    std::size_t m_rackBegin = 0, m_gpuBegin = 0;
    std::vector<Patch> m_gpuPatches;   // by GPU, from m_gpuBegin
    std::vector<Patch> m_lidPatches;   // by rack, from m_rackBegin
    std::vector<Rgb> m_gpuShown;       // the colour each patch has now
    std::vector<Rgb> m_lidShown;
    vtkSmartPointer<vtkActor> m_actor;
    vtkSmartPointer<vtkImageData> m_image;
    unsigned char* m_texels = nullptr;  // m_image's, looked up once: a frame paints thousands of patches
    int m_width = 2, m_height = 1;
};

}  // namespace faultline
