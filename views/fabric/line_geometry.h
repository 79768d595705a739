#pragma once
// Outlines drawn over the 3D view (selection, replaced hardware, blast radius, cause marks):
// the lines of boxes and loops, and the unlit actor that draws them.
#include "views/fabric/fabric_layout.h"
#include "views/gpu_palette.h"

#include <vtkSmartPointer.h>

#include <array>

class vtkActor;
class vtkCellArray;
class vtkPoints;
class vtkPolyData;

namespace faultline {

// An unlit, unpickable actor drawing `lines` in one colour and width.
vtkSmartPointer<vtkActor> lineActor(vtkPolyData* lines, Rgb colour, float width);
// A closed loop through four corners, as one line cell.
void appendLoop(vtkPoints* points, vtkCellArray* lines, const std::array<std::array<float, 3>, 4>& corners);
// The 12 edges of a box, as line cells.
void appendBoxEdges(vtkPoints* points, vtkCellArray* lines, const Box3& box);
// The box grown by `by` on every side.
Box3 grown(Box3 box, float by);

}  // namespace faultline
