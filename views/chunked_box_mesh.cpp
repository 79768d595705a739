#include "chunked_box_mesh.h"

#include <vtkActor.h>

namespace faultline {

ChunkedBoxMesh::ChunkedBoxMesh(const std::vector<Box3>& boxes, std::vector<std::size_t> starts, BoxMesh::Faces faces)
    : m_starts(std::move(starts)) {
    if (m_starts.empty() || m_starts.front() != 0) m_starts.insert(m_starts.begin(), 0);
    for (std::size_t c = 0; c < m_starts.size(); ++c) {
        const std::size_t end = c + 1 < m_starts.size() ? m_starts[c + 1] : boxes.size();
        const std::vector<Box3> chunk(boxes.begin() + static_cast<std::ptrdiff_t>(m_starts[c]), boxes.begin() + static_cast<std::ptrdiff_t>(end));
        m_chunks.push_back(std::make_unique<BoxMesh>(chunk, faces));
    }
}

std::vector<vtkActor*> ChunkedBoxMesh::actors() const {
    std::vector<vtkActor*> out;
    for (const auto& c : m_chunks) out.push_back(c->actor());
    return out;
}

void ChunkedBoxMesh::setVisibility(bool visible) {
    for (const auto& c : m_chunks) c->actor()->SetVisibility(visible);
}

void ChunkedBoxMesh::setColours(std::span<const Rgb> colours) {
    for (std::size_t c = 0; c < m_chunks.size(); ++c) {
        if (m_starts[c] >= colours.size()) break;
        m_chunks[c]->setColours(colours.subspan(m_starts[c], std::min(m_chunks[c]->size(), colours.size() - m_starts[c])));
    }
}

}  // namespace faultline
