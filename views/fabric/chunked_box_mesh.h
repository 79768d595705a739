#pragma once
// Many boxes as several BoxMeshes, each a run of neighbouring boxes (whole racks of GPUs):
// VTK culls an actor outside the view whole, so a close view draws only the chunks it sees
// instead of every GPU of the cluster. A chunk is built when first shown: most of a large
// cluster is only ever seen from afar, as row blocks.
#include "views/fabric/box_mesh.h"

#include <memory>
#include <span>
#include <vector>

class vtkActor;

namespace faultline {

class ChunkedBoxMesh {
public:
    // `starts` are the first box of each chunk, ascending, starting with 0. Every chunk starts
    // hidden; `boxes` must outlive the mesh.
    ChunkedBoxMesh(const std::vector<Box3>& boxes, std::vector<std::size_t> starts, BoxMesh::Faces faces = BoxMesh::Faces::All,
                   BoxMesh::Lit lit = BoxMesh::Lit::Top);

    std::vector<vtkActor*> actors() const;
    void setVisibility(bool visible);
    void setColours(std::span<const Rgb> colours);

    std::size_t chunkCount() const { return m_chunks.size(); }
    std::size_t chunkBegin(std::size_t chunk) const { return m_starts[chunk]; }
    std::size_t chunkEnd(std::size_t chunk) const { return chunk + 1 < m_starts.size() ? m_starts[chunk + 1] : m_count; }
    const Box3& chunkBounds(std::size_t chunk) const { return m_bounds[chunk]; }
    void setChunkVisibility(std::size_t chunk, bool visible);
    // Colours of the chunk's boxes, taken from the colours of every box.
    void setChunkColours(std::size_t chunk, std::span<const Rgb> colours);

private:
    std::size_t m_count = 0;
    std::vector<std::size_t> m_starts;
    std::vector<Box3> m_bounds;
    std::vector<std::unique_ptr<BoxMesh>> m_chunks;
};

}  // namespace faultline
