#pragma once
// The legend drawn inside the 3D view, in its bottom-left corner: a panel of colour swatches
// with a line of text each, in as many columns as fit across the view: a low strip, at most
// a fifth of the view's height (its text made smaller when it would be taller), that camera
// fits keep clear of; it folds to its title with a click. Drawn as 2D VTK props. Being part of the render, it is in every frame
// the view makes: on screen, in snapshots, report figures and video. Sized from the window
// (overlayScale) so that it reads the same on a laptop and a 4K projector. Knows nothing of Qt.
#include "views/gpu_palette.h"
#include "views/fabric/label_placer.h"
#include "views/state_legend.h"

#include <vtkSmartPointer.h>

#include <optional>
#include <vector>

class vtkActor2D;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace faultline {

// How much larger than at 1000 pixels high text and marks over the view are drawn: with the
// window's height in logical pixels (a little smaller in a small view, to leave it room),
// times the screen's device pixel ratio.
double overlayScale(int heightPixels, double devicePixelRatio);

class SceneLegend {
public:
    explicit SceneLegend(vtkRenderer* renderer);
    ~SceneLegend();
    SceneLegend(const SceneLegend&) = delete;
    SceneLegend& operator=(const SceneLegend&) = delete;

    void setEntries(std::vector<LegendEntry> entries);
    const std::vector<LegendEntry>& entries() const { return m_entries; }
    // A colour scale drawn above the entries, its title the legend's (nullopt: "GPU state").
    void setScale(std::optional<LegendScale> scale);
    const std::optional<LegendScale>& scale() const { return m_bar; }
    std::string title() const;
    // The title without a scale: "GPU state" unless set ("Job" when coloured by job).
    void setPlainTitle(std::string title);
    void setColours(Rgb panel, Rgb border, Rgb text);
    void setVisible(bool visible);
    bool visible() const { return m_visible; }
    // Folded to its title alone, leaving the hall the whole view; a click on it in the view
    // folds or unfolds it (FabricView).
    void setCollapsed(bool collapsed);
    bool collapsed() const { return m_collapsed; }
    // Lays it out for the render window's size now (device pixels); cheap when nothing changed.
    void layout(int width, int height, double scale);
    // Puts it over every other 2D prop (labels added after it).
    void bringToFront();

    // Where it is drawn, in display pixels (origin bottom-left), after layout().
    ScreenRect panelRect() const { return m_panel; }
    ScreenRect swatchRect(std::size_t entry) const { return m_swatches.at(entry); }
    ScreenRect textRect(std::size_t entry) const { return m_textRects.at(entry); }
    // The scale's bar and its end labels (empty rects without a scale, or folded).
    ScreenRect scaleBarRect() const { return m_barRect; }
    ScreenRect scaleLowTextRect() const { return m_lowRect; }
    ScreenRect scaleHighTextRect() const { return m_highRect; }

private:
    struct Layout {
        double cell = 0, line = 0, titleLine = 0, width = 0, height = 0, textWidth = 0;
        double scaleLine = 0, lowWidth = 0, highWidth = 0, barWidth = 0;
        std::size_t rows = 0;
    };
    // Sizes the text for scale `s` and works out the panel it makes.
    Layout measure(double s);
    void rebuild();

    vtkRenderer* m_renderer;
    vtkSmartPointer<vtkPolyData> m_shapes;  // the panel and the swatches, one quad each
    vtkSmartPointer<vtkActor2D> m_shapeActor;
    vtkSmartPointer<vtkTextActor> m_title;
    std::string m_plainTitle = "GPU state";
    std::vector<vtkSmartPointer<vtkTextActor>> m_texts;
    std::vector<LegendEntry> m_entries;
    std::optional<LegendScale> m_bar;
    vtkSmartPointer<vtkTextActor> m_lowText, m_highText;
    ScreenRect m_barRect, m_lowRect, m_highRect;
    Rgb m_panelColour{255, 255, 255}, m_borderColour{180, 180, 180}, m_textColour{0, 0, 0};
    ScreenRect m_panel;
    std::vector<ScreenRect> m_swatches, m_textRects;
    int m_width = 0, m_height = 0, m_dpi = 0;
    double m_scale = 0;
    bool m_visible = true;
    bool m_collapsed = false;
    bool m_dirty = true;
};

}  // namespace faultline
