#pragma once
// Far away, each row of racks as one long block whose top and front are a strip of its
// racks' colours (one texel a rack): four quads a row instead of three a rack. On a software
// rasteriser a far view of 100,000 GPUs is bound by how many tiny triangles it sets up, not
// by how many pixels they cover.
#include "fabric_layout.h"
#include "gpu_palette.h"

#include <vtkSmartPointer.h>

#include <span>
#include <vector>

class vtkActor;
class vtkImageData;

namespace faultline {

class RowMesh {
public:
    // Racks [begin, end) of `racks`; consecutive racks with the same `rowOf` form a row.
    RowMesh(const std::vector<Box3>& racks, const std::vector<std::int64_t>& rowOf, std::size_t begin, std::size_t end);

    vtkActor* actor() const;
    // Colours of every rack of the layout (indexed as `racks`); takes effect at the next render.
    void setColours(std::span<const Rgb> rackColours);

private:
    struct Row {
        std::size_t firstRack = 0, count = 0;
    };
    std::vector<Row> m_rows;
    vtkSmartPointer<vtkActor> m_actor;
    vtkSmartPointer<vtkImageData> m_image;
    int m_width = 2;
};

}  // namespace faultline
