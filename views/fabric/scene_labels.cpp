#include "views/fabric/scene_labels.h"

#include "views/fabric/hall_colours.h"

#include <vtkCamera.h>
#include <vtkCoordinate.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStdString.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

constexpr double kLabelFontSize = 15;  // pixels, at scale 1
constexpr double kLabelPadding = 3;    // pixels kept free around a label, at scale 1

std::array<double, 3> colour(Rgb c) { return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0}; }

}  // namespace

SceneLabels::SceneLabels(const FabricLayout& layout, vtkRenderer* renderer) : m_renderer(renderer) {
    // Every name floats as 2D text over the scene, the zones' too: letters painted on the
    // floor in front of a zone were hidden by the racks of the zone before it.
    for (const Label3& l : layout.labels) {
        // 2D text anchored at a world point: drawn last, over the scene, and opaque, so it
        // needs none of the translucency passes that 3D text costs on a software rasteriser.
        auto text = vtkSmartPointer<vtkTextActor>::New();
        text->SetInput(l.text.c_str());
        text->GetPositionCoordinate()->SetCoordinateSystemToWorld();
        text->GetPositionCoordinate()->SetValue(l.at[0], l.at[1], l.at[2]);
        text->GetTextProperty()->SetFontSize(static_cast<int>(kLabelFontSize));
        text->GetTextProperty()->SetColor(0.15, 0.17, 0.22);
        text->GetTextProperty()->SetJustificationToCentered();
        text->GetTextProperty()->SetVerticalJustificationToCentered();
        text->PickableOff();
        renderer->AddViewProp(text);
        m_texts.push_back(text);
        m_floating.push_back(l);
    }
}

SceneLabels::~SceneLabels() {
    for (auto& text : m_texts) m_renderer->RemoveViewProp(text);
}

void SceneLabels::setColours(const HallColours& colours) {
    for (auto& text : m_texts) {
        text->GetTextProperty()->SetColor(colour(colours.label).data());
        // A backing of the floor's colour: a name over a switch or a cabinet still reads.
        text->GetTextProperty()->SetBackgroundColor(colour(colours.background).data());
        text->GetTextProperty()->SetBackgroundOpacity(0.75);
    }
}

void SceneLabels::measure(double fontSize) {
    const int dpi = m_renderer->GetRenderWindow() ? m_renderer->GetRenderWindow()->GetDPI() : 72;
    if (fontSize == m_fontSize && dpi == m_dpi) return;
    m_fontSize = fontSize;
    m_dpi = dpi;
    m_sizes.assign(m_texts.size(), {0, 0});
    vtkTextRenderer* renderer = vtkTextRenderer::GetInstance();
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        vtkTextProperty* property = m_texts[i]->GetTextProperty();
        property->SetFontSize(static_cast<int>(fontSize));
        int box[4] = {0, 0, 0, 0};
        if (renderer && renderer->GetBoundingBox(property, vtkStdString(m_floating[i].text), box, dpi))
            m_sizes[i] = {static_cast<double>(box[1] - box[0] + 1), static_cast<double>(box[3] - box[2] + 1)};
    }
}

void SceneLabels::place(const std::vector<ScreenRect>& blocked, double scale) {
    measure(std::round(kLabelFontSize * scale));
    vtkCamera* camera = m_renderer->GetActiveCamera();
    std::array<double, 3> eye{}, look{};
    camera->GetPosition(eye.data());
    camera->GetDirectionOfProjection(look.data());
    const double pad = kLabelPadding * scale;
    const int* view = m_renderer->GetSize();
    std::vector<LabelCandidate> candidates;
    candidates.reserve(m_texts.size());
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        const auto& at = m_floating[i].at;
        // Behind the eye a point still projects somewhere on screen: not a place to show it.
        const double ahead = (at[0] - eye[0]) * look[0] + (at[1] - eye[1]) * look[1] + (at[2] - eye[2]) * look[2];
        m_renderer->SetWorldPoint(at[0], at[1], at[2], 1.0);
        m_renderer->WorldToDisplay();
        const double* d = m_renderer->GetDisplayPoint();
        // Centred on its point; a name the view's edge would cut (framed against the edge, or
        // the camera orbited it half out) hangs from its point to the inside instead, and one
        // whose point is out of view waits until it is back: no name is ever shown cut.
        const double w = m_sizes[i][0], h = m_sizes[i][1];
        double x0 = d[0] - w / 2, y0 = d[1] - h / 2;
        int horizontal = VTK_TEXT_CENTERED, vertical = VTK_TEXT_CENTERED;
        if (x0 < 0) x0 = d[0], horizontal = VTK_TEXT_LEFT;
        else if (x0 + w > view[0]) x0 = d[0] - w, horizontal = VTK_TEXT_RIGHT;
        if (y0 + h > view[1]) y0 = d[1] - h, vertical = VTK_TEXT_TOP;
        else if (y0 < 0) y0 = d[1], vertical = VTK_TEXT_BOTTOM;
        const bool whole = x0 >= 0 && y0 >= 0 && x0 + w <= view[0] && y0 + h <= view[1];
        m_texts[i]->GetTextProperty()->SetJustification(horizontal);
        m_texts[i]->GetTextProperty()->SetVerticalJustification(vertical);
        candidates.push_back({{x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad}, static_cast<int>(m_floating[i].kind), ahead > 0 && whole});
    }
    const std::vector<bool> shown = placeLabels(candidates, blocked);
    m_placed.clear();
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        m_texts[i]->SetVisibility(shown[i]);
        m_placed.push_back({m_floating[i].text, m_floating[i].kind, candidates[i].rect, shown[i]});
    }
}

}  // namespace faultline
