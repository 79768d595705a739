#pragma once
// Many boxes as several BoxMeshes, each a run of neighbouring boxes (whole racks of GPUs):
// VTK culls an actor outside the view whole, so a close view draws only the chunks it sees
// instead of every GPU of the cluster.
#include "box_mesh.h"

#include <memory>
#include <span>
#include <vector>

class vtkActor;

namespace faultline {

class ChunkedBoxMesh {
public:
    // `starts` are the first box of each chunk, ascending, starting with 0.
    ChunkedBoxMesh(const std::vector<Box3>& boxes, std::vector<std::size_t> starts, BoxMesh::Faces faces = BoxMesh::Faces::All);

    std::vector<vtkActor*> actors() const;
    void setVisibility(bool visible);
    void setColours(std::span<const Rgb> colours);

private:
    std::vector<std::size_t> m_starts;
    std::vector<std::unique_ptr<BoxMesh>> m_chunks;
};

}  // namespace faultline
