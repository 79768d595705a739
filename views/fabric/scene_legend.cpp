#include "views/fabric/scene_legend.h"

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStdString.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

// Pixels at scale 1: compact beside the hall, readable from the back of a room at 4K.
constexpr double kLegendFontSize = 13;
constexpr double kTitleSize = 14;
constexpr double kSwatch = 13;
constexpr double kLegendPadding = 8;
constexpr double kGap = 6;     // between a swatch and its text
constexpr double kLeading = 5;  // between lines
constexpr double kMargin = 12;  // from the view's corner
constexpr double kColumnGap = 14;
constexpr std::size_t kMaxColumns = 8;
constexpr double kBarWidth = 170;  // the colour scale's bar

std::array<double, 3> unit(Rgb c) { return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0}; }

// A frame around a swatch that sets it off the panel, dark swatches on a dark panel too: the
// panel's colour a quarter darker on a light panel, a third of the way to white on a dark one.
Rgb frameOn(Rgb panel) {
    const bool dark = panel[0] + panel[1] + panel[2] < 3 * 128;
    Rgb frame{};
    for (std::size_t k = 0; k < 3; ++k)
        frame[k] = static_cast<std::uint8_t>(dark ? panel[k] + (255 - panel[k]) / 3 : panel[k] * 3 / 4);
    return frame;
}

std::array<double, 2> textSize(vtkTextProperty* property, const std::string& text, int dpi) {
    int box[4] = {0, 0, 0, 0};
    vtkTextRenderer* renderer = vtkTextRenderer::GetInstance();
    if (!renderer || !renderer->GetBoundingBox(property, vtkStdString(text), box, dpi)) return {0, 0};
    return {static_cast<double>(box[1] - box[0] + 1), static_cast<double>(box[3] - box[2] + 1)};
}

ScreenRect grownBy(const ScreenRect& r, double d) { return {r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d}; }

}  // namespace

double overlayScale(int heightPixels, double devicePixelRatio) {
    const double dpr = std::max(1.0, devicePixelRatio);
    return std::min(4.0, dpr * std::clamp(heightPixels / dpr / 1000.0, 0.85, 4.0));
}

SceneLegend::SceneLegend(vtkRenderer* renderer)
    : m_renderer(renderer),
      m_shapes(vtkSmartPointer<vtkPolyData>::New()),
      m_shapeActor(vtkSmartPointer<vtkActor2D>::New()),
      m_title(vtkSmartPointer<vtkTextActor>::New()),
      m_lowText(vtkSmartPointer<vtkTextActor>::New()),
      m_highText(vtkSmartPointer<vtkTextActor>::New()) {
    auto mapper = vtkSmartPointer<vtkPolyDataMapper2D>::New();
    mapper->SetInputData(m_shapes);
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    m_shapeActor->SetMapper(mapper);
    m_shapeActor->PickableOff();
    m_title->SetInput("GPU state");
    m_title->GetTextProperty()->BoldOn();
    m_title->PickableOff();
    for (vtkTextActor* t : {m_lowText.Get(), m_highText.Get()}) {
        t->PickableOff();
        t->GetTextProperty()->SetVerticalJustificationToCentered();
        t->SetVisibility(false);
    }
    bringToFront();
}

SceneLegend::~SceneLegend() {
    m_renderer->RemoveViewProp(m_shapeActor);
    m_renderer->RemoveViewProp(m_title);
    m_renderer->RemoveViewProp(m_lowText);
    m_renderer->RemoveViewProp(m_highText);
    for (auto& t : m_texts) m_renderer->RemoveViewProp(t);
}

void SceneLegend::bringToFront() {
    // The renderer draws 2D props in the order they were added: the last added is on top.
    for (vtkProp* p : {static_cast<vtkProp*>(m_shapeActor.Get()), static_cast<vtkProp*>(m_title.Get()), static_cast<vtkProp*>(m_lowText.Get()),
                       static_cast<vtkProp*>(m_highText.Get())}) {
        m_renderer->RemoveViewProp(p);
        m_renderer->AddViewProp(p);
    }
    for (auto& t : m_texts) {
        m_renderer->RemoveViewProp(t);
        m_renderer->AddViewProp(t);
    }
}

void SceneLegend::setEntries(std::vector<LegendEntry> entries) {
    const bool sameTexts = entries.size() == m_entries.size() &&
                           std::equal(entries.begin(), entries.end(), m_entries.begin(), [](const LegendEntry& a, const LegendEntry& b) { return a.text == b.text; });
    m_entries = std::move(entries);
    if (!sameTexts) {
        for (auto& t : m_texts) m_renderer->RemoveViewProp(t);
        m_texts.clear();
        for (const LegendEntry& e : m_entries) {
            auto text = vtkSmartPointer<vtkTextActor>::New();
            text->SetInput(e.text.c_str());
            text->GetTextProperty()->SetVerticalJustificationToCentered();
            text->PickableOff();
            text->SetVisibility(m_visible);
            m_renderer->AddViewProp(text);
            m_texts.push_back(text);
        }
    }
    m_dirty = true;
}

void SceneLegend::setScale(std::optional<LegendScale> scale) {
    m_bar = std::move(scale);
    m_lowText->SetInput(m_bar ? m_bar->lowText.c_str() : "");
    m_highText->SetInput(m_bar ? m_bar->highText.c_str() : "");
    m_title->SetInput((title() + (m_collapsed ? " (click to show)" : "")).c_str());
    setVisible(m_visible);
    m_dirty = true;
}

std::string SceneLegend::title() const { return m_bar ? m_bar->title : m_plainTitle; }

void SceneLegend::setPlainTitle(std::string title) {
    m_plainTitle = std::move(title);
    setScale(m_bar);  // shows the title
}

void SceneLegend::setColours(Rgb panel, Rgb border, Rgb text) {
    m_panelColour = panel;
    m_borderColour = border;
    m_textColour = text;
    m_dirty = true;
}

void SceneLegend::setVisible(bool visible) {
    m_visible = visible;
    m_shapeActor->SetVisibility(visible);
    m_title->SetVisibility(visible);
    for (auto& t : m_texts) t->SetVisibility(visible && !m_collapsed);
    m_lowText->SetVisibility(visible && !m_collapsed && m_bar);
    m_highText->SetVisibility(visible && !m_collapsed && m_bar);
}

void SceneLegend::setCollapsed(bool collapsed) {
    if (collapsed == m_collapsed) return;
    m_collapsed = collapsed;
    m_title->SetInput((title() + (collapsed ? " (click to show)" : "")).c_str());
    setVisible(m_visible);
    m_dirty = true;
}

void SceneLegend::layout(int width, int height, double scale) {
    const int dpi = m_renderer->GetRenderWindow() ? m_renderer->GetRenderWindow()->GetDPI() : 72;
    if (!m_dirty && width == m_width && height == m_height && scale == m_scale && dpi == m_dpi) return;
    m_width = width, m_height = height, m_scale = scale, m_dpi = dpi;
    m_dirty = false;
    rebuild();
}

SceneLegend::Layout SceneLegend::measure(double s) {
    const double pad = kLegendPadding * s, swatch = std::round(kSwatch * s), gap = kGap * s, columnGap = kColumnGap * s;
    m_title->GetTextProperty()->SetFontSize(static_cast<int>(std::round(kTitleSize * s)));
    m_title->GetTextProperty()->SetColor(unit(m_textColour).data());
    const double titleWidth = textSize(m_title->GetTextProperty(), m_title->GetInput() ? m_title->GetInput() : "", m_dpi)[0];
    double textWidth = 0, line = swatch;
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        vtkTextProperty* p = m_texts[i]->GetTextProperty();
        p->SetFontSize(static_cast<int>(std::round(kLegendFontSize * s)));
        p->SetColor(unit(m_textColour).data());
        const auto size = textSize(p, m_entries[i].text, m_dpi);
        textWidth = std::max(textWidth, size[0]);
        line = std::max(line, size[1]);
    }
    line += kLeading * s;
    Layout out;
    if (m_bar && !m_collapsed) {
        for (vtkTextActor* t : {m_lowText.Get(), m_highText.Get()}) {
            t->GetTextProperty()->SetFontSize(static_cast<int>(std::round(kLegendFontSize * s)));
            t->GetTextProperty()->SetColor(unit(m_textColour).data());
        }
        out.lowWidth = textSize(m_lowText->GetTextProperty(), m_bar->lowText, m_dpi)[0];
        out.highWidth = textSize(m_highText->GetTextProperty(), m_bar->highText, m_dpi)[0];
        out.barWidth = std::round(kBarWidth * s);
        out.scaleLine = line;
    }
    // As many columns as fit across the view: a low strip along the bottom that leaves the
    // hall most of the view's height (camera fits keep clear of it).
    out.textWidth = textWidth;
    out.cell = swatch + gap + textWidth + columnGap;
    out.line = line;
    out.titleLine = std::round(kTitleSize * s) * 1.6;
    const std::size_t n = std::max<std::size_t>(1, m_entries.size());
    const auto fit = static_cast<std::size_t>(std::max(1.0, std::floor((m_width - 2 * std::round(kMargin * s) - 2 * pad + columnGap) / out.cell)));
    const std::size_t rows = (n + std::min({fit, kMaxColumns, n}) - 1) / std::min({fit, kMaxColumns, n});
    const std::size_t columns = (n + rows - 1) / rows;  // as many as those rows fill: no empty column
    out.rows = m_collapsed ? 0 : rows;
    const double scaleWidth = out.scaleLine > 0 ? 2 * pad + out.lowWidth + 2 * gap + out.barWidth + out.highWidth : 0;
    out.width = std::ceil(std::max({m_collapsed ? 0.0 : 2 * pad + static_cast<double>(columns) * out.cell - columnGap, 2 * pad + titleWidth, scaleWidth}));
    out.height = std::ceil(2 * pad + out.titleLine + out.scaleLine + line * static_cast<double>(out.rows));
    return out;
}

void SceneLegend::rebuild() {
    // The scale asked for, or smaller when the legend would then take more than a fifth of
    // the view's height (a small window, a short dock layout).
    double s = m_scale;
    Layout fitted = measure(s);
    for (int tries = 0; tries < 8 && fitted.height > m_height / 5.0 && s > m_scale * 0.55; ++tries) {
        s *= std::max(0.55, std::min(0.95, m_height / 5.0 / fitted.height));
        fitted = measure(s);
    }
    const double pad = kLegendPadding * s, swatch = std::round(kSwatch * s), gap = kGap * s;
    const double cell = fitted.cell, line = fitted.line, titleLine = fitted.titleLine;
    const std::size_t rows = fitted.rows;
    const double w = fitted.width, h = fitted.height;
    const double x0 = std::round(kMargin * s), y0 = std::round(kMargin * s);
    m_panel = {x0, y0, x0 + w, y0 + h};

    auto points = vtkSmartPointer<vtkPoints>::New();
    auto quads = vtkSmartPointer<vtkCellArray>::New();
    auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colours->SetNumberOfComponents(3);
    auto quad = [&](const ScreenRect& r, Rgb c) {
        const vtkIdType ids[4] = {points->InsertNextPoint(r.x0, r.y0, 0), points->InsertNextPoint(r.x1, r.y0, 0),
                                  points->InsertNextPoint(r.x1, r.y1, 0), points->InsertNextPoint(r.x0, r.y1, 0)};
        quads->InsertNextCell(4, ids);
        colours->InsertNextTypedTuple(c.data());
    };
    // Drawn in order: the border, the panel over it, then each swatch over its frame.
    quad(grownBy(m_panel, std::max(1.0, std::round(s))), m_borderColour);
    quad(m_panel, m_panelColour);
    m_title->SetPosition(x0 + pad, m_panel.y1 - pad - titleLine / 2);
    m_title->GetTextProperty()->SetVerticalJustificationToCentered();
    m_swatches.clear();
    m_textRects.clear();
    m_barRect = m_lowRect = m_highRect = {};
    if (fitted.scaleLine > 0) {
        // "low [bar] high" on one line under the title: the numbers where the colours are.
        const double centre = m_panel.y1 - pad - titleLine - fitted.scaleLine / 2;
        const double left = x0 + pad;
        m_lowRect = {left, centre - line / 2, left + fitted.lowWidth, centre + line / 2};
        m_lowText->SetPosition(left, centre);
        const double barLeft = left + fitted.lowWidth + gap;
        m_barRect = {barLeft, std::round(centre - swatch / 2), barLeft + fitted.barWidth, std::round(centre - swatch / 2) + swatch};
        quad(grownBy(m_barRect, std::max(1.0, std::round(s))), frameOn(m_panelColour));
        const std::size_t n = m_bar->colours.size();
        for (std::size_t k = 0; k < n; ++k) {
            const double a = m_barRect.x0 + fitted.barWidth * static_cast<double>(k) / static_cast<double>(n);
            const double b = m_barRect.x0 + fitted.barWidth * static_cast<double>(k + 1) / static_cast<double>(n);
            quad({a, m_barRect.y0, b, m_barRect.y1}, m_bar->colours[k]);
        }
        m_highRect = {m_barRect.x1 + gap, centre - line / 2, m_barRect.x1 + gap + fitted.highWidth, centre + line / 2};
        m_highText->SetPosition(m_highRect.x0, centre);
    }
    for (std::size_t i = 0; i < m_entries.size() && !m_collapsed; ++i) {
        // Down each column, then across: read in order like a list.
        const double left = x0 + pad + static_cast<double>(i / rows) * cell;
        const double centre = m_panel.y1 - pad - titleLine - fitted.scaleLine - line * (static_cast<double>(i % rows) + 0.5);
        const ScreenRect sw{left, std::round(centre - swatch / 2), left + swatch, std::round(centre - swatch / 2) + swatch};
        const LegendEntry& e = m_entries[i];
        if (e.outline) quad(grownBy(sw, std::max(2.0, std::round(2 * s))), *e.outline);
        else quad(grownBy(sw, std::max(1.0, std::round(s))), frameOn(m_panelColour));
        quad(sw, e.fill);
        m_swatches.push_back(sw);
        m_texts[i]->SetPosition(sw.x1 + gap, centre);
        m_textRects.push_back({sw.x1 + gap, centre - line / 2, sw.x1 + gap + fitted.textWidth, centre + line / 2});
    }
    m_shapes->SetPoints(points);
    m_shapes->SetPolys(quads);
    m_shapes->GetCellData()->SetScalars(colours);
    m_shapes->Modified();
}

}  // namespace faultline
