#include "exports/panel_export.h"

#include "exports/image_file.h"
#include "model/error.h"
#include "model/partial_file.h"
#include "exports/offscreen_renderer.h"
#include "views/fabric/fabric_view.h"
#include "widgets/vtk_render_widget.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QOpenGLWidget>
#include <QPainter>
#include <QSvgGenerator>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

namespace faultline {

namespace {

// Lays the panel out at `size` for one picture and puts it back as it was.
class Resized {
public:
    Resized(QWidget* w, QSize size) : m_w(w), m_old(w->size()) {
        if (m_old != size) {
            m_w->resize(size);
            settle();
        }
    }
    ~Resized() {
        if (m_w->size() != m_old) {
            m_w->resize(m_old);
            settle();
        }
    }
    Resized(const Resized&) = delete;
    Resized& operator=(const Resized&) = delete;

private:
    // Layouts and Qt Charts lay out on events: let them run before painting.
    static void settle() {
        QApplication::sendPostedEvents();
        QApplication::processEvents();
    }
    QWidget* m_w;
    QSize m_old;
};

}  // namespace

bool supportsSvg(const QWidget* panel) {
    return !qobject_cast<const FabricView*>(panel) && panel->findChildren<QOpenGLWidget*>().isEmpty() &&
           panel->findChildren<VtkRenderWidget*>().isEmpty();
}

// The 3D view as the window shows it (instant, camera, selection) but rendered off screen
// at the picture's own size, so the window is left as it is.
QImage fabricPicture(const FabricView& fabric, QSize pixels) {
    if (!fabric.run()) return {};
    // The view keeps its run alive for as long as this takes.
    const std::shared_ptr<const Run> run(std::shared_ptr<const Run>(), fabric.run());
    OffscreenRenderer offscreen(run, pixels, /*caption=*/false);
    vtkCamera* camera = offscreen.view().renderWidget()->renderer()->GetActiveCamera();
    camera->DeepCopy(fabric.renderWidget()->renderer()->GetActiveCamera());
    offscreen.view().renderWidget()->renderer()->ResetCameraClippingRange();
    offscreen.view().select(fabric.selected());
    return offscreen.render(fabric.time());
}

void paintPanel(QWidget* panel, QPainter& painter, QSize size) {
    if (auto* fabric = qobject_cast<FabricView*>(panel)) {
        const qreal scale = painter.device() ? painter.device()->devicePixelRatioF() : 1.0;
        const QSize pixels(static_cast<int>(std::lround(size.width() * scale)), static_cast<int>(std::lround(size.height() * scale)));
        painter.drawImage(QRect(QPoint(0, 0), size), fabricPicture(*fabric, pixels));
        return;
    }
    Resized resized(panel, size);
    panel->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
}

QImage panelImage(QWidget* panel, QSize size, double scale) {
    QImage image(QSize(static_cast<int>(std::lround(size.width() * scale)), static_cast<int>(std::lround(size.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(panel->palette().window().color());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paintPanel(panel, painter, size);
    return image;
}

bool exportPanel(QWidget* panel, const QString& path, QSize size, double scale, QString* error) {
    if (QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0) {
        if (!supportsSvg(panel)) {
            *error = QString("the 3D view is a rendered picture: write it as PNG, not SVG");
            return false;
        }
        try {
            writeThroughPartial(path.toStdString(), [&](const std::string& partialPath) {
                writeRenderedFile(partialPath, [&](QIODevice& device) {
                    QSvgGenerator svg;
                    svg.setOutputDevice(&device);
                    svg.setSize(size);
                    svg.setViewBox(QRect(QPoint(0, 0), size));
                    svg.setTitle(panel->windowTitle().isEmpty() ? panel->objectName() : panel->windowTitle());
                    svg.setDescription("Faultline");
                    QPainter painter;
                    if (!painter.begin(&svg)) throw Error(path.toStdString() + ": cannot write");
                    paintPanel(panel, painter, size);
                    painter.end();
                });
            });
        } catch (const Error& e) {
            *error = QString::fromStdString(e.what());
            return false;
        }
        return true;
    }
    try {
        saveImageFile(panelImage(panel, size, scale), path);
    } catch (const Error& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

void copyPanelToClipboard(QWidget* panel, double scale) {
    QApplication::clipboard()->setImage(panelImage(panel, panel->size(), scale));
}

}  // namespace faultline
