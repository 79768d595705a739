#include "views/fabric/line_geometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

namespace faultline {

vtkSmartPointer<vtkActor> lineActor(vtkPolyData* lines, Rgb colour, float width) {
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(lines);
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->LightingOff();
    actor->GetProperty()->SetColor(colour[0] / 255.0, colour[1] / 255.0, colour[2] / 255.0);
    actor->GetProperty()->SetLineWidth(width);
    actor->PickableOff();
    return actor;
}

void appendLoop(vtkPoints* points, vtkCellArray* lines, const std::array<std::array<float, 3>, 4>& corners) {
    vtkIdType ids[5];
    for (int k = 0; k < 4; ++k) ids[k] = points->InsertNextPoint(corners[static_cast<std::size_t>(k)].data());
    ids[4] = ids[0];
    lines->InsertNextCell(5, ids);
}

void appendBoxEdges(vtkPoints* points, vtkCellArray* lines, const Box3& b) {
    for (float z : {b.min[2], b.max[2]})
        appendLoop(points, lines, {{{b.min[0], b.min[1], z}, {b.max[0], b.min[1], z}, {b.max[0], b.max[1], z}, {b.min[0], b.max[1], z}}});
    for (float x : {b.min[0], b.max[0]})
        for (float y : {b.min[1], b.max[1]}) {
            vtkIdType ids[2] = {points->InsertNextPoint(x, y, b.min[2]), points->InsertNextPoint(x, y, b.max[2])};
            lines->InsertNextCell(2, ids);
        }
}

Box3 grown(Box3 b, float by) {
    for (std::size_t k = 0; k < 3; ++k) {
        b.min[k] -= by;
        b.max[k] += by;
    }
    return b;
}

}  // namespace faultline
