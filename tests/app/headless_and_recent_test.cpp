// The app as a script runs it and as a reviewer comes back to it: the exports work with no
// display (Qt's offscreen platform), and File > Open Recent lists only the runs opened in a
// window, each told apart by its folder when two share a name, with its full path on hover.
// (This suite's settings are its own: gui_test_main.cpp points XDG_CONFIG_HOME elsewhere.)
#include "app_process.h"
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "app/recent_files.h"
#include "model/run_file.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>

#include <gtest/gtest.h>

#include <filesystem>

namespace faultline {
namespace {

struct Ran {
    int exitCode = -1;
    QString errors;
};

// The built app with no display at all: no DISPLAY, no WAYLAND_DISPLAY, no platform asked for.
Ran runWithoutADisplay(const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
    QProcess app;
    app.setProcessEnvironment(env);
    app.start(FAULTLINE_APP, args);
    Ran r;
    if (!app.waitForFinished(240'000)) {
        app.kill();
        return r;
    }
    r.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -2;  // -2: it crashed (aborted)
    r.errors = QString::fromLocal8Bit(app.readAllStandardError());
    return r;
}

// The app's own settings file (organisation Faultline, application faultline) where the app
// this suite starts keeps it: under the suite's XDG_CONFIG_HOME.
QStringList recentFilesOfTheApp() {
    const QString file = QString::fromLocal8Bit(qgetenv("XDG_CONFIG_HOME")) + "/Faultline/faultline.conf";
    return QSettings(file, QSettings::IniFormat).value("recentFiles").toStringList();
}

class Headless : public ::testing::Test {
protected:
    void SetUp() override {
        test::guiApp();
        writeRunFile(test::tinyRun(), run.toStdString());
    }
    test::ScratchDir dir;
    QString run = QString::fromStdString(dir.file("tiny.faultline"));
};

TEST_F(Headless, TheReportIsWrittenWithNoDisplayAsHtmlAndPdf) {
    for (const char* name : {"report.html", "report.pdf"}) {
        const QString out = QString::fromStdString(dir.file(name));
        const Ran r = runWithoutADisplay({"--report", out, "--incidents", "1", run});
        EXPECT_EQ(r.exitCode, 0) << name << ": " << r.errors.toStdString();
        EXPECT_GT(QFileInfo(out).size(), 1000) << name;
    }
    QFile html(QString::fromStdString(dir.file("report.html")));
    ASSERT_TRUE(html.open(QIODevice::ReadOnly));
    EXPECT_TRUE(html.readAll().contains("<html")) << "an HTML report";
    QFile pdf(QString::fromStdString(dir.file("report.pdf")));
    ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdf.read(5) == "%PDF-") << "a PDF";
}

TEST_F(Headless, AScreenshotWithNoDisplayIsWrittenOrRefusedWithAReason) {
    const QString charts = QString::fromStdString(dir.file("charts.svg"));
    const Ran svg = runWithoutADisplay({"--screenshot", charts, "--view", "charts", run});
    EXPECT_EQ(svg.exitCode, 0) << svg.errors.toStdString();
    EXPECT_TRUE(QFileInfo::exists(charts));
    // The 3D view needs OpenGL: written where the offscreen platform has it, else exit 1 saying so.
    const QString fabric = QString::fromStdString(dir.file("fabric.png"));
    const Ran png = runWithoutADisplay({"--screenshot", fabric, "--size", "800x600", run});
    ASSERT_TRUE(png.exitCode == 0 || png.exitCode == 1) << "exit " << png.exitCode << ": " << png.errors.toStdString();
    if (png.exitCode == 0) EXPECT_TRUE(QFileInfo::exists(fabric));
    else EXPECT_TRUE(png.errors.contains("OpenGL")) << png.errors.toStdString();
}

TEST_F(Headless, ScreenshotsAndReportsAreNotRecentRuns) {
    const QString shot = QString::fromStdString(dir.file("shot.png"));
    ASSERT_EQ(test::runApp({"--screenshot", shot, "--size", "800x600", run}).exitCode, 0);
    const QString report = QString::fromStdString(dir.file("r.html"));
    ASSERT_EQ(test::runApp({"--report", report, "--incidents", "1", run}).exitCode, 0);
    EXPECT_TRUE(recentFilesOfTheApp().isEmpty()) << recentFilesOfTheApp().join(", ").toStdString();
}

TEST(OpenRecent, TheSettingsOfTestsAreTheirOwn) {
    test::guiApp();
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    EXPECT_FALSE(config.startsWith(QDir::homePath() + "/.config")) << config.toStdString();
    EXPECT_EQ(QString::fromLocal8Bit(qgetenv("XDG_CONFIG_HOME")), config);
}

TEST(OpenRecent, TwoRunsOfOneNameAreToldApartByTheirFolderAndShowTheirPathOnHover) {
    test::guiApp();
    test::ScratchDir dir;
    std::filesystem::create_directories(dir.path() / "march");
    std::filesystem::create_directories(dir.path() / "april");
    const QString march = QString::fromStdString((dir.path() / "march" / "run.faultline").string());
    const QString april = QString::fromStdString((dir.path() / "april" / "run.faultline").string());
    const QString other = QString::fromStdString(dir.file("other.faultline"));
    EXPECT_EQ(recentLabels({{march, {}}, {april, {}}, {other, {}}}),
              QStringList({"run.faultline — march", "run.faultline — april", "other.faultline"}));
    EXPECT_EQ(recentLabels({{march, other}}), QStringList({"run.faultline vs other.faultline"}));
    // Folders of one name too: the folder's path.
    std::filesystem::create_directories(dir.path() / "a" / "x");
    std::filesystem::create_directories(dir.path() / "b" / "x");
    const QString ax = QString::fromStdString((dir.path() / "a" / "x" / "run.faultline").string());
    const QString bx = QString::fromStdString((dir.path() / "b" / "x" / "run.faultline").string());
    const QStringList deep = recentLabels({{ax, {}}, {bx, {}}});
    EXPECT_EQ(deep[0], "run.faultline — " + QFileInfo(ax).absolutePath());
    EXPECT_EQ(deep[1], "run.faultline — " + QFileInfo(bx).absolutePath());

    // In the menu of a window that opened both.
    writeRunFile(test::tinyRun(), march.toStdString());
    writeRunFile(test::tinyRun(), april.toStdString());
    clearRecent();
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, march.toStdString()));
    ASSERT_TRUE(test::openAndWait(window, april.toStdString()));
    auto* menu = window.findChild<QMenu*>("openRecentMenu");
    ASSERT_NE(menu, nullptr);
    EXPECT_TRUE(menu->toolTipsVisible());
    emit menu->aboutToShow();
    const QList<QAction*> actions = menu->actions();
    ASSERT_GE(actions.size(), 2);
    EXPECT_EQ(actions[0]->text(), "run.faultline — april");
    EXPECT_EQ(actions[0]->toolTip(), QDir::toNativeSeparators(april));
    EXPECT_TRUE(actions[0]->statusTip().contains(april));
    EXPECT_EQ(actions[1]->text(), "run.faultline — march");
    EXPECT_EQ(actions[1]->toolTip(), QDir::toNativeSeparators(march));
    clearRecent();
}

}  // namespace
}  // namespace faultline
