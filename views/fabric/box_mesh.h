#pragma once
// Many boxes as one VTK mesh whose colours live in a texture: box i samples texel i, so a
// frame recolours every box by rewriting a small image, never touching the geometry (a
// changed mesh would be re-uploaded whole). Each box has five faces (no bottom), facing
// outward so back faces can be culled; the sides sample darker copies of the box's colour,
// which shades the boxes without lighting.
#include "views/fabric/fabric_layout.h"
#include "views/gpu_palette.h"

#include <vtkSmartPointer.h>

#include <span>
#include <vector>

class vtkActor;
class vtkImageData;

namespace faultline {

class BoxMesh {
public:
    // One face only: two triangles a box instead of ten, for views where the others would
    // be a pixel wide anyway (the top of a rack lid, the front of a GPU).
    // OpenBack: all but the back, for boxes whose back is inside something (a GPU in its
    // cabinet); a face fewer to set up for each of thousands of boxes.
    // TopAndFront: the faces a view from the front and above sees of a box far away (the
    // switch tiers of a fleet seen whole).
    enum class Faces { All, OpenBack, TopOnly, FrontOnly, TopAndFront };
    // Which faces show the true colour: the tops (floors, lids), or the fronts (GPUs and
    // racks, which face the aisle); the others are shaded darker.
    enum class Lit { Top, Front };
    explicit BoxMesh(const std::vector<Box3>& boxes, Faces faces = Faces::All, Lit lit = Lit::Top);
    // Built when first shown (setVisible): most boxes of a large cluster are never seen up
    // close, and building them all is most of opening it. Hidden until then; `boxes` must
    // outlive the mesh.
    struct Deferred {};
    BoxMesh(std::span<const Box3> boxes, Faces faces, Lit lit, Deferred);

    vtkActor* actor() const;
    // Shows or hides the boxes, building them first if they never were.
    void setVisible(bool visible);
    bool built() const { return m_built; }
    std::size_t size() const { return m_count; }
    // Colours of every box; takes effect at the next render. The texture is uploaded again
    // only when a colour changed: most frames of a replay change none or a handful.
    void setColours(std::span<const Rgb> colours);
    void setColour(std::size_t box, Rgb colour);  // one box; call commit() after a batch
    void commit();

private:
    void build();
    void paintTexel(std::size_t box, Rgb colour);

    std::span<const Box3> m_boxes;  // until built
    Faces m_faces = Faces::All;
    bool m_built = false;
    vtkSmartPointer<vtkActor> m_actor;
    vtkSmartPointer<vtkImageData> m_image;
    std::size_t m_count = 0;
    std::vector<Rgb> m_shown;  // each box's colour (in the texture once built)
    bool m_changed = false;    // since the last commit
    int m_textureWidth = 1;
    Lit m_lit = Lit::Top;
};

inline constexpr int kFacesPerBox = 5;  // with Faces::All; the bottom is never seen

}  // namespace faultline
