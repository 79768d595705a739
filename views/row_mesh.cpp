#include "row_mesh.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkTexture.h>

#include <algorithm>

namespace faultline {

namespace {
constexpr int kShades = 3;                                  // top, front, sides
constexpr std::array<int, kShades> kShadePercent{84, 100, 66};  // lit from the front, as the GPUs
}  // namespace

RowMesh::RowMesh(const std::vector<Box3>& racks, const std::vector<std::int64_t>& rowOf, std::size_t begin, std::size_t end)
    : m_actor(vtkSmartPointer<vtkActor>::New()), m_image(vtkSmartPointer<vtkImageData>::New()) {
    for (std::size_t r = begin; r < end; ++r) {
        if (m_rows.empty() || rowOf[r] != rowOf[m_rows.back().firstRack]) m_rows.push_back({r, 0});
        ++m_rows.back().count;
    }
    for (const Row& row : m_rows) m_width = std::max(m_width, static_cast<int>(row.count));
    const int height = std::max<int>(1, static_cast<int>(m_rows.size())) * kShades;
    m_image->SetDimensions(m_width, height, 1);
    m_image->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    std::fill_n(static_cast<unsigned char*>(m_image->GetScalarPointer()), static_cast<std::size_t>(m_width * height * 3), 0);

    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToFloat();
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    const auto w = static_cast<float>(m_width);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const Row& row = m_rows[i];
        const Box3& first = racks[row.firstRack];
        const Box3& last = racks[row.firstRack + row.count - 1];
        const float x0 = first.min[0], x1 = last.max[0], y0 = first.min[1], y1 = first.max[1], z1 = first.max[2];
        // u runs across the racks: rack k of the row covers texel k.
        const float pitch = row.count > 1 ? (racks[row.firstRack + 1].min[0] - x0) : (x1 - x0);
        const float uEnd = (x1 - x0) / pitch / w;
        auto v = [&](int shade) { return (static_cast<float>(static_cast<int>(i) * kShades + shade) + 0.5f) / static_cast<float>(height); };
        auto quad = [&](std::array<std::array<float, 3>, 4> corners, std::array<float, 4> us, int shade) {
            vtkIdType ids[4];
            for (std::size_t k = 0; k < 4; ++k) {
                ids[k] = points->InsertNextPoint(corners[k].data());
                tcoords->InsertNextTuple2(us[k], v(shade));
            }
            polys->InsertNextCell(4, ids);
        };
        const float firstU = 0.5f / w, lastU = (static_cast<float>(row.count) - 0.5f) / w;
        quad({{{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}}, {0, uEnd, uEnd, 0}, 0);  // top
        quad({{{x0, y0, 0}, {x1, y0, 0}, {x1, y0, z1}, {x0, y0, z1}}}, {0, uEnd, uEnd, 0}, 1);    // front
        quad({{{x0, y0, 0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, 0}}}, {firstU, firstU, firstU, firstU}, 2);  // left
        quad({{{x1, y0, 0}, {x1, y1, 0}, {x1, y1, z1}, {x1, y0, z1}}}, {lastU, lastU, lastU, lastU}, 2);      // right
    }
    auto mesh = vtkSmartPointer<vtkPolyData>::New();
    mesh->SetPoints(points);
    mesh->SetPolys(polys);
    mesh->GetPointData()->SetTCoords(tcoords);
    auto texture = vtkSmartPointer<vtkTexture>::New();
    texture->SetInputData(m_image);
    texture->InterpolateOff();
    texture->EdgeClampOn();
    texture->MipmapOff();
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(mesh);
    mapper->ScalarVisibilityOff();
    m_actor->SetMapper(mapper);
    m_actor->SetTexture(texture);
    m_actor->GetProperty()->LightingOff();
    m_actor->GetProperty()->SetColor(1, 1, 1);
    m_actor->GetProperty()->BackfaceCullingOn();
}

vtkActor* RowMesh::actor() const { return m_actor; }

void RowMesh::setColours(std::span<const Rgb> rackColours) {
    auto* texels = static_cast<unsigned char*>(m_image->GetScalarPointer());
    const auto w = static_cast<std::size_t>(m_width);
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        for (std::size_t k = 0; k < m_rows[i].count; ++k) {
            const std::size_t rack = m_rows[i].firstRack + k;
            if (rack >= rackColours.size()) continue;
            for (std::size_t s = 0; s < kShades; ++s) {
                unsigned char* t = texels + ((i * kShades + s) * w + k) * 3;
                for (std::size_t c = 0; c < 3; ++c) t[c] = static_cast<unsigned char>(rackColours[rack][c] * kShadePercent[s] / 100);
            }
        }
    m_image->Modified();
}

}  // namespace faultline
