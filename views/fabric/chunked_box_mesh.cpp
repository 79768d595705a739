#include "views/fabric/chunked_box_mesh.h"

#include <vtkActor.h>

#include <algorithm>

namespace faultline {

ChunkedBoxMesh::ChunkedBoxMesh(const std::vector<Box3>& boxes, std::vector<std::size_t> starts, BoxMesh::Faces faces, BoxMesh::Lit lit)
    : m_count(boxes.size()), m_starts(std::move(starts)) {
    if (m_starts.empty() || m_starts.front() != 0) m_starts.insert(m_starts.begin(), 0);
    for (std::size_t c = 0; c < m_starts.size(); ++c) {
        const std::span<const Box3> chunk = std::span<const Box3>(boxes).subspan(m_starts[c], chunkEnd(c) - m_starts[c]);
        Box3 bounds = chunk.empty() ? Box3{} : chunk.front();
        for (const Box3& b : chunk)
            for (std::size_t k = 0; k < 3; ++k) {
                bounds.min[k] = std::min(bounds.min[k], b.min[k]);
                bounds.max[k] = std::max(bounds.max[k], b.max[k]);
            }
        m_bounds.push_back(bounds);
        m_chunks.push_back(std::make_unique<BoxMesh>(chunk, faces, lit, BoxMesh::Deferred{}));
    }
}

void ChunkedBoxMesh::setChunkVisibility(std::size_t chunk, bool visible) { m_chunks[chunk]->setVisible(visible); }

void ChunkedBoxMesh::setChunkColours(std::size_t chunk, std::span<const Rgb> colours) {
    const std::size_t begin = std::min(chunkBegin(chunk), colours.size());
    const std::size_t end = std::min(chunkEnd(chunk), colours.size());
    m_chunks[chunk]->setColours(colours.subspan(begin, end - begin));
}

std::vector<vtkActor*> ChunkedBoxMesh::actors() const {
    std::vector<vtkActor*> out;
    for (const auto& c : m_chunks) out.push_back(c->actor());
    return out;
}

void ChunkedBoxMesh::setVisibility(bool visible) {
    for (const auto& c : m_chunks) c->setVisible(visible);
}

void ChunkedBoxMesh::setColours(std::span<const Rgb> colours) {
    for (std::size_t c = 0; c < m_chunks.size(); ++c) setChunkColours(c, colours);
}

}  // namespace faultline
