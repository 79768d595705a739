#include "vtk_surface_window.h"

#include <QCoreApplication>
#include <QEvent>

namespace faultline {

VtkSurfaceWindow::VtkSurfaceWindow(Handlers handlers) : m_handlers(std::move(handlers)) {
    setSurfaceType(QSurface::OpenGLSurface);
    // Keyboard focus stays with the widget that holds this window, where the view's and
    // its panel's shortcuts are found.
    setFlag(Qt::WindowDoesNotAcceptFocus);
}

void VtkSurfaceWindow::scheduleFrame() {
    if (m_framePosted) return;
    m_framePosted = true;
    // Low priority: input and the other posted events go first.
    QCoreApplication::postEvent(this, new QEvent(QEvent::UpdateRequest), Qt::LowEventPriority);
}

bool VtkSurfaceWindow::event(QEvent* event) {
    switch (event->type()) {
        case QEvent::UpdateRequest:
            m_framePosted = false;
            if (isExposed()) m_handlers.render();
            return true;
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseMove:
        case QEvent::Wheel:
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
            m_handlers.input(event);
            return true;
        default: return QWindow::event(event);
    }
}

void VtkSurfaceWindow::exposeEvent(QExposeEvent*) {
    if (isExposed()) m_handlers.render();
}

}  // namespace faultline
