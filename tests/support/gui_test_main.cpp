// The Qt suites' main (exports, views, app, help menu): one QApplication, made before the first
// test that needs it.
#include "gui_test_app.h"

#include <QApplication>
#include <QSurfaceFormat>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

namespace faultline::test {

namespace {
std::unique_ptr<QApplication> app;

// The suite's settings (Open Recent, layout, theme) in a folder of its own, for this process
// and the faultline processes it starts: a test never writes the user's settings.
std::filesystem::path ownSettings() {
    char pattern[] = "/tmp/faultline-test-config-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (!made) return {};
    ::setenv("XDG_CONFIG_HOME", made, 1);
    return made;
}
const std::filesystem::path settingsDir = ownSettings();
}  // namespace

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
    std::error_code ignored;
    if (!faultline::test::settingsDir.empty()) std::filesystem::remove_all(faultline::test::settingsDir, ignored);
    return status;
}
