#pragma once
// The hall's names in the 3D view: floating 2D text for the switch tiers, switches, zones and
// rows, drawn over the scene (a name on the floor was hidden by the racks in front of it),
// placed without overlap whenever the view is drawn (label_placer.h): tier names before
// switch names before zone and row names. Knows nothing of Qt.
#include "views/fabric/fabric_layout.h"
#include "views/fabric/label_placer.h"

#include <vtkSmartPointer.h>

#include <string>
#include <vector>

class vtkActor;
class vtkRenderer;
class vtkTextActor;

namespace faultline {

struct HallColours;

class SceneLabels {
public:
    SceneLabels(const FabricLayout& layout, vtkRenderer* renderer);
    ~SceneLabels();
    SceneLabels(const SceneLabels&) = delete;
    SceneLabels& operator=(const SceneLabels&) = delete;

    void setColours(const HallColours& colours);
    // Shows the floating labels that fit for the renderer's camera now: none over another of
    // higher priority, nor over a `blocked` area (display pixels, such as the legend's).
    // `scale` sizes the text for the window (1 at 1000 pixels high).
    void place(const std::vector<ScreenRect>& blocked, double scale);

    struct Placed {
        std::string text;
        LabelKind kind;
        ScreenRect rect;  // display pixels, origin bottom-left
        bool shown;
    };
    // The floating labels as the last place() left them.
    const std::vector<Placed>& placed() const { return m_placed; }

private:
    void measure(double fontSize);

    vtkRenderer* m_renderer;
    std::vector<vtkSmartPointer<vtkTextActor>> m_texts;
    std::vector<Label3> m_floating;            // what m_texts show, in the same order
    std::vector<std::array<double, 2>> m_sizes;  // each text's width and height in pixels
    std::vector<Placed> m_placed;
    double m_fontSize = 0;
    int m_dpi = 0;
};

}  // namespace faultline
