// The Qt suites' main (exports, views, app, help menu): one QApplication, made before the first
// test that needs it.
#include "gui_test_app.h"

#include <QApplication>
#include <QSurfaceFormat>

#include <gtest/gtest.h>

#include <memory>

namespace faultline::test {

namespace {
std::unique_ptr<QApplication> app;
}

QApplication& guiApp() {
    static int argc = 1;
    static char name[] = "faultline_gui_test";  // every Qt suite alike: one QSettings
    static char* argv[] = {name, nullptr};
    if (!app) {
        QSurfaceFormat format;
        format.setVersion(3, 2);
        format.setProfile(QSurfaceFormat::CoreProfile);
        format.setDepthBufferSize(24);
        format.setSamples(0);
        QSurfaceFormat::setDefaultFormat(format);
        app = std::make_unique<QApplication>(argc, argv);
    }
    return *app;
}

}  // namespace faultline::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    faultline::test::app.reset();  // before static destructors, while Qt's globals still live
    return status;
}
