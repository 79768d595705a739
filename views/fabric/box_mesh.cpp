#include "views/fabric/box_mesh.h"

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
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <span>
#include <utility>

namespace faultline {

namespace {

constexpr int kMaxTextureWidth = 1024;
constexpr int kShades = 3;  // top, front/back, left/right
constexpr std::array<int, kShades> kShadePercent{100, 80, 64};
constexpr std::array<int, kShades> kFrontLitPercent{84, 100, 66};

// Corner c of box b: bit 0 picks x max, bit 1 y max, bit 2 z max.
std::array<float, 3> corner(const Box3& b, int c) {
    return {(c & 1) ? b.max[0] : b.min[0], (c & 2) ? b.max[1] : b.min[1], (c & 4) ? b.max[2] : b.min[2]};
}

struct Face {
    std::array<int, 4> corners;  // counter-clockwise seen from outside
    int shade;
};
// Corners as bits: 0=(x0,y0,z0) 1=(x1,y0,z0) 2=(x0,y1,z0) 3=(x1,y1,z0), +4 for z1.
constexpr std::array<Face, kFacesPerBox> kFaces{{
    {{4, 5, 7, 6}, 0},  // top
    {{0, 1, 5, 4}, 1},  // front (-y)
    {{0, 4, 6, 2}, 2},  // left (-x)
    {{1, 3, 7, 5}, 2},  // right (+x)
    {{2, 6, 7, 3}, 1},  // back (+y), last: Faces::OpenBack leaves it out
}};

}  // namespace

BoxMesh::BoxMesh(const std::vector<Box3>& boxes, Faces faces, Lit lit) : BoxMesh(std::span<const Box3>(boxes), faces, lit, Deferred{}) {
    setVisible(true);  // built now: the caller's boxes may go
}

BoxMesh::BoxMesh(std::span<const Box3> boxes, Faces faces, Lit lit, Deferred)
    : m_boxes(boxes), m_faces(faces), m_actor(vtkSmartPointer<vtkActor>::New()), m_image(vtkSmartPointer<vtkImageData>::New()),
      m_count(boxes.size()), m_shown(boxes.size(), Rgb{0, 0, 0}), m_lit(lit) {
    m_actor->VisibilityOff();
    m_actor->GetProperty()->LightingOff();  // the shades are in the texture
    m_actor->GetProperty()->SetColor(1, 1, 1);
    m_actor->GetProperty()->BackfaceCullingOn();
}

void BoxMesh::setVisible(bool visible) {
    if (visible && !m_built) build();
    m_actor->SetVisibility(visible);
}

void BoxMesh::build() {
    m_built = true;
    const Faces faces = m_faces;
    const std::span<const Box3> boxes = std::exchange(m_boxes, {});
    // At least two texels wide: VTK loads an image one texel wide as a 1D texture along its
    // height, which would sample the wrong shade.
    m_textureWidth = static_cast<int>(std::clamp<std::size_t>(m_count, 2, kMaxTextureWidth));
    const int bands = static_cast<int>((std::max<std::size_t>(m_count, 1) + static_cast<std::size_t>(m_textureWidth) - 1) /
                                       static_cast<std::size_t>(m_textureWidth));
    const int height = bands * kShades;
    allocateOpaqueTexels(m_image, m_textureWidth, height);
    for (std::size_t i = 0; i < m_count; ++i) paintTexel(i, m_shown[i]);

    const std::size_t faceCount = faces == Faces::All ? kFacesPerBox : faces == Faces::OpenBack ? kFacesPerBox - 1 : faces == Faces::TopAndFront ? 2 : 1;
    const std::size_t firstFace = faces == Faces::FrontOnly ? 1 : 0;  // the top comes first, then the front
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToFloat();
    points->SetNumberOfPoints(static_cast<vtkIdType>(m_count * faceCount * 4));
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    tcoords->SetNumberOfTuples(points->GetNumberOfPoints());
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    polys->AllocateExact(static_cast<vtkIdType>(m_count * faceCount), static_cast<vtkIdType>(m_count * faceCount * 4));
    vtkIdType next = 0;
    for (std::size_t i = 0; i < m_count; ++i) {
        const int tx = static_cast<int>(i % static_cast<std::size_t>(m_textureWidth));
        const int band = static_cast<int>(i / static_cast<std::size_t>(m_textureWidth));
        for (std::size_t f = 0; f < faceCount; ++f) {
            const Face& face = kFaces[firstFace + f];
            const float u = (static_cast<float>(tx) + 0.5f) / static_cast<float>(m_textureWidth);
            const float v = (static_cast<float>(band * kShades + face.shade) + 0.5f) / static_cast<float>(height);
            vtkIdType ids[4];
            for (int k = 0; k < 4; ++k) {
                const auto p = corner(boxes[i], face.corners[static_cast<std::size_t>(k)]);
                points->SetPoint(next, p[0], p[1], p[2]);
                tcoords->SetTuple2(next, u, v);
                ids[k] = next++;
            }
            polys->InsertNextCell(4, ids);
        }
    }
    auto mesh = vtkSmartPointer<vtkPolyData>::New();
    mesh->SetPoints(points);
    mesh->SetPolys(polys);
    mesh->GetPointData()->SetTCoords(tcoords);

    auto texture = vtkSmartPointer<vtkTexture>::New();
    texture->SetInputData(m_image);
    texture->InterpolateOff();  // one texel is one box: no blending with the neighbour's colour
    texture->EdgeClampOn();
    texture->MipmapOff();
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(mesh);
    mapper->ScalarVisibilityOff();
    m_actor->SetMapper(mapper);
    m_actor->SetTexture(texture);
    m_actor->ForceOpaqueOn();
}

vtkActor* BoxMesh::actor() const { return m_actor; }

void BoxMesh::setColour(std::size_t box, Rgb colour) {
    if (box >= m_count || sameRgb(m_shown[box], colour)) return;
    m_shown[box] = colour;
    if (!m_built) return;  // painted when built
    m_changed = true;
    paintTexel(box, colour);
}

void BoxMesh::paintTexel(std::size_t box, Rgb colour) {
    auto* texels = static_cast<unsigned char*>(m_image->GetScalarPointer());
    const std::size_t w = static_cast<std::size_t>(m_textureWidth);
    const std::size_t x = box % w;
    const std::size_t band = box / w;
    for (std::size_t s = 0; s < kShades; ++s) {
        unsigned char* t = texels + ((band * kShades + s) * w + x) * kTexelBytes;
        const int percent = m_lit == Lit::Front ? kFrontLitPercent[s] : kShadePercent[s];
        for (std::size_t k = 0; k < 3; ++k) t[k] = static_cast<unsigned char>(colour[k] * percent / 100);
    }
}

void BoxMesh::setColours(std::span<const Rgb> colours) {
    const std::size_t n = std::min(colours.size(), m_count);
    for (std::size_t i = 0; i < n; ++i) setColour(i, colours[i]);
    commit();
}

void BoxMesh::commit() {
    if (m_changed) m_image->Modified();
    m_changed = false;
}

}  // namespace faultline
