#include "widgets/open_gl_probe.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSurfaceFormat>

namespace faultline {

bool openGlAvailable() {
    static const bool available = [] {
        QOffscreenSurface surface;
        surface.setFormat(QSurfaceFormat::defaultFormat());
        surface.create();
        QOpenGLContext context;
        context.setFormat(QSurfaceFormat::defaultFormat());
        if (!surface.isValid() || !context.create() || !context.makeCurrent(&surface)) return false;
        context.doneCurrent();
        return true;
    }();
    return available;
}

}  // namespace faultline
