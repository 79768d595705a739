#include "views/fabric/row_mesh.h"

#include "views/fabric/texel_image.h"

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
#include <cmath>

namespace faultline {

namespace {

constexpr int kMaxTextureSide = 8192;
constexpr float kMinTexelsPerUnit = 0.25f;
// Shades baked into the texels, lit from the front as the GPU boxes are.
constexpr int kShadeFront = 100, kShadeLid = 84, kShadeSide = 66, kShadeCabinetFront = 80, kShadeGap = 40;

}  // namespace

RowMesh::RowMesh(const Topology& topology, const FabricLayout& layout, const std::vector<std::int64_t>& rowOf, std::size_t rackBegin,
                 std::size_t rackEnd, std::size_t hostBegin, std::size_t hostEnd, float texelsPerUnit)
    : m_rackBegin(rackBegin), m_actor(vtkSmartPointer<vtkActor>::New()), m_image(vtkSmartPointer<vtkImageData>::New()) {
    const std::vector<Box3>& racks = layout.racks;
    std::vector<std::size_t> rowOfRack(rackEnd - rackBegin, 0);
    for (std::size_t r = rackBegin; r < rackEnd; ++r) {
        if (m_rows.empty() || rowOf[r] != rowOf[m_rows.back().firstRack]) m_rows.push_back({r, 0, racks[r].min[0], 0});
        ++m_rows.back().count;
        rowOfRack[r - rackBegin] = m_rows.size() - 1;
    }
    float longest = 1, tallest = 1;
    for (const Row& row : m_rows) {
        longest = std::max(longest, racks[row.firstRack + row.count - 1].max[0] - row.x0);
        tallest = std::max(tallest, racks[row.firstRack].max[2]);
    }
    // Fewer texels a unit where a chunk's rows would not fit in a texture (a zone of a
    // thousand racks in one row); never none, whatever a topology holds.
    const auto rows = static_cast<float>(std::max<std::size_t>(1, m_rows.size()));
    const float perUnit = std::max(kMinTexelsPerUnit, std::min({texelsPerUnit, static_cast<float>(kMaxTextureSide) / longest,
                                                                (static_cast<float>(kMaxTextureSide) / rows - 2) / tallest}));
    const int frontLines = std::max(1, static_cast<int>(std::ceil(tallest * perUnit)));
    const int linesPerRow = frontLines + 2;  // sides, front, lids
    m_width = std::max(2, static_cast<int>(std::ceil(longest * perUnit)));
    m_height = std::max(1, static_cast<int>(m_rows.size()) * linesPerRow);
    for (std::size_t i = 0; i < m_rows.size(); ++i) m_rows[i].top = static_cast<int>(i) * linesPerRow + frontLines + 1;

    allocateOpaqueTexels(m_image, m_width, m_height);
    m_texels = static_cast<unsigned char*>(m_image->GetScalarPointer());

    // The texels of a box along one axis: as many as its size rounds to (at least one), so
    // that every GPU is a patch of the same size, centred where the box is, so that the
    // patch always holds the box's centre, where a test or a click looks for it.
    auto span = [&](float from, float to, float origin, int limit) {
        const int count = std::max(1, static_cast<int>(std::lround((to - from) * perUnit)));
        const float centre = ((from + to) / 2 - origin) * perUnit;
        const int a = std::clamp(static_cast<int>(std::lround(centre - static_cast<float>(count) / 2)), 0, limit - 1);
        const int b = std::clamp(a + count, a + 1, limit);
        return std::array<int, 2>{a, b};
    };
    auto frontPatch = [&](const Row& row, const Box3& box) {
        const int base = row.top - frontLines;
        const auto x = span(box.min[0], box.max[0], row.x0, m_width);
        const auto z = span(box.min[2], box.max[2], 0, frontLines);
        return Patch{x[0], x[1], base + z[0], base + z[1]};
    };
    // Under the texels painted below: the gaps between racks, dark, and each row's sides.
    for (const Row& row : m_rows) {
        paint({0, m_width, row.top - frontLines - 1, row.top + 1}, kCabinetColour, kShadeGap);
        paint({0, m_width, row.top - frontLines - 1, row.top - frontLines}, kCabinetColour, kShadeSide);
    }
    m_lidPatches.resize(rackEnd - rackBegin);
    m_lidShown.assign(rackEnd - rackBegin, Rgb{});
    for (std::size_t r = rackBegin; r < rackEnd; ++r) {
        const Row& row = m_rows[rowOfRack[r - rackBegin]];
        paint(frontPatch(row, racks[r]), kCabinetColour, kShadeCabinetFront);
        const auto x = span(racks[r].min[0], racks[r].max[0], row.x0, m_width);
        m_lidPatches[r - rackBegin] = {x[0], x[1], row.top, row.top + 1};
    }
    m_gpuBegin = hostBegin < hostEnd ? static_cast<std::size_t>(topology.hosts[hostBegin].firstGpu) : 0;
    for (std::size_t h = hostBegin; h < hostEnd; ++h) {
        const Host& host = topology.hosts[h];
        const auto rack = static_cast<std::size_t>(host.rack);
        if (rack < rackBegin || rack >= rackEnd) continue;
        const Row& row = m_rows[rowOfRack[rack - rackBegin]];
        paint(frontPatch(row, layout.hosts[h]), kTrayColour, kShadeCabinetFront);
        for (std::int32_t i = 0; i < host.gpuCount; ++i) {
            const auto g = static_cast<std::size_t>(host.firstGpu + i);
            if (g < m_gpuBegin || g >= layout.gpus.size()) continue;
            if (m_gpuPatches.size() <= g - m_gpuBegin) m_gpuPatches.resize(g - m_gpuBegin + 1);
            m_gpuPatches[g - m_gpuBegin] = frontPatch(row, layout.gpus[g]);
        }
    }
    m_gpuShown.assign(m_gpuPatches.size(), Rgb{});

    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToFloat();
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    const auto w = static_cast<float>(m_width), h = static_cast<float>(m_height);
    for (const Row& row : m_rows) {
        const Box3& first = racks[row.firstRack];
        const float x0 = row.x0, x1 = racks[row.firstRack + row.count - 1].max[0], y0 = first.min[1], y1 = first.max[1], z1 = first.max[2];
        const float u1 = (x1 - x0) * perUnit / w;
        const auto frontBottom = static_cast<float>(row.top - frontLines) / h;
        const float frontTop = frontBottom + z1 * perUnit / h;
        const float lid = (static_cast<float>(row.top) + 0.5f) / h, side = (static_cast<float>(row.top - frontLines - 1) + 0.5f) / h;
        auto quad = [&](std::array<std::array<float, 3>, 4> corners, std::array<std::array<float, 2>, 4> uv) {
            vtkIdType ids[4];
            for (std::size_t k = 0; k < 4; ++k) {
                ids[k] = points->InsertNextPoint(corners[k].data());
                tcoords->InsertNextTuple2(uv[k][0], uv[k][1]);
            }
            polys->InsertNextCell(4, ids);
        };
        quad({{{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}}, {{{0, lid}, {u1, lid}, {u1, lid}, {0, lid}}});  // top
        quad({{{x0, y0, 0}, {x1, y0, 0}, {x1, y0, z1}, {x0, y0, z1}}}, {{{0, frontBottom}, {u1, frontBottom}, {u1, frontTop}, {0, frontTop}}});
        const float mid = u1 / 2;
        quad({{{x0, y0, 0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, 0}}}, {{{mid, side}, {mid, side}, {mid, side}, {mid, side}}});  // left
        quad({{{x1, y0, 0}, {x1, y1, 0}, {x1, y1, z1}, {x1, y0, z1}}}, {{{mid, side}, {mid, side}, {mid, side}, {mid, side}}});  // right
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
    m_actor->ForceOpaqueOn();
}

vtkActor* RowMesh::actor() const { return m_actor; }

void RowMesh::paint(const Patch& patch, Rgb colour, int shadePercent) {
    Rgb shaded;
    for (std::size_t c = 0; c < 3; ++c) shaded[c] = static_cast<std::uint8_t>(colour[c] * shadePercent / 100);
    for (int y = patch.y0; y < patch.y1; ++y)
        for (int x = patch.x0; x < patch.x1; ++x)
            setTexel(m_texels + (static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x)) * kTexelBytes, shaded);
}

void RowMesh::setColours(std::span<const Rgb> gpuColours, std::span<const Rgb> rackColours) {
    bool changed = false;
    for (std::size_t i = 0; i < m_gpuPatches.size() && m_gpuBegin + i < gpuColours.size(); ++i)
        if (const Rgb& c = gpuColours[m_gpuBegin + i]; !sameRgb(c, m_gpuShown[i]) && m_gpuPatches[i].x1 > 0) {
            m_gpuShown[i] = c;
            paint(m_gpuPatches[i], c, kShadeFront);
            changed = true;
        }
    for (std::size_t i = 0; i < m_lidPatches.size() && m_rackBegin + i < rackColours.size(); ++i)
        if (const Rgb& c = rackColours[m_rackBegin + i]; !sameRgb(c, m_lidShown[i])) {
            m_lidShown[i] = c;
            paint(m_lidPatches[i], c, kShadeLid);
            changed = true;
        }
    if (changed) m_image->Modified();
}

}  // namespace faultline
