#pragma once
// Pictures of panels for documents: PNG at a chosen size and scale (scale 2 gives a sharp
// picture on a slide or a high-DPI page), SVG (vector, Qt SVG) for the panels Qt paints
// itself (charts, timeline, incident chain), and the clipboard. The 3D view is rendered by
// the off-screen path at the asked size, so its picture never depends on the window.
#include <QImage>
#include <QSize>
#include <QString>

class QPainter;
class QWidget;

namespace faultline {

class FabricView;

// Whether a panel can be written as SVG: everything but OpenGL-drawn views.
bool supportsSvg(const QWidget* panel);

// Paints `panel` at `size` logical pixels into `painter` (vector where the device is): the
// panel is resized for it and given back its size afterwards.
void paintPanel(QWidget* panel, QPainter& painter, QSize size);

// The panel as an image of size * scale pixels (devicePixelRatio scale).
QImage panelImage(QWidget* panel, QSize size, double scale = 1.0);

// Writes `panel` to `path`: SVG when it ends in .svg, else an image format by extension
// (PNG, JPEG). Returns false and sets `error` when it cannot.
bool exportPanel(QWidget* panel, const QString& path, QSize size, double scale, QString* error);

// The panel's picture on the clipboard, at its current size.
void copyPanelToClipboard(QWidget* panel, double scale = 1.0);

}  // namespace faultline
