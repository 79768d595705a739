// The window as a user first sees it: its size and place on the screen, the 3D view given most
// of it, the dark theme and the colour-blind-safe palette reaching every panel, and the
// inspector following the incident chosen.
#include "cut_texts.h"
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "analysis/blast_radius.h"
#include "analysis/incidents.h"
#include "app/first_window.h"
#include "app/main_window.h"
#include "app/recent_files.h"
#include "app/theme.h"
#include "model/run_file.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_palette.h"
#include "views/state_palette.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/replay_panel.h"
#include "views/fabric/scene_legend.h"
#include "widgets/stat_tile.h"
#include "widgets/vtk_render_widget.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QImage>
#include <QFileInfo>
#include <QMenu>
#include <QLabel>
#include <QGraphicsTextItem>
#include <QGraphicsSimpleTextItem>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QtCharts/QChartView>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace faultline {
namespace {

using test::maybeSave;
using test::ScratchDir;

// Settings of this test alone, cleared before and after.
struct FreshSettings {
    QApplication& app = test::guiApp();  // first: the settings are the application's
    ScratchDir dir;
    FreshSettings() {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, QString::fromStdString(dir.path().string()));
        QSettings().clear();
    }
    ~FreshSettings() { QSettings().clear(); }
};

// Fresh settings before the window reads them.
struct TinyRunWindow : FreshSettings, test::WindowOnRun {
    TinyRunWindow() : WindowOnRun(test::tinyRun(), QSize(), "tiny.faultline") {
        EXPECT_TRUE(shown);
        QApplication::processEvents();
    }
    ~TinyRunWindow() { applyTheme(Theme::Light); }
};

// Where tests save what they render, for a person to look at: FAULTLINE_TEST_SHOTS=DIR.

int area(const QWidget* w) { return w && w->isVisible() ? w->width() * w->height() : 0; }

TEST(WindowLook, TheFirstWindowTakesMostOfTheScreenCentredWithThe3DViewLargest) {
    TinyRunWindow w;
    const QRect screen = w.window.screen()->availableGeometry();
    const QRect frame = w.window.geometry();
    EXPECT_NEAR(frame.width(), screen.width() * 0.8, screen.width() * 0.03);
    EXPECT_NEAR(frame.height(), screen.height() * 0.8, screen.height() * 0.05);  // less the title bar, if any
    EXPECT_NEAR(frame.center().x(), screen.center().x(), 30);
    EXPECT_NEAR(frame.center().y(), screen.center().y(), 40);
    maybeSave(w.window, "first_window");

    // The 3D view is the largest panel, and every dock is wide and tall enough to read.
    const int view = area(w.window.replayPanel()->fabricView());
    int docksShown = 0;
    for (QDockWidget* dock : w.window.findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || dock->visibleRegion().isEmpty()) continue;  // a tab behind another
        EXPECT_GT(view, area(dock)) << dock->objectName().toStdString();
        EXPECT_GE(dock->width(), 300) << dock->objectName().toStdString();
        EXPECT_GE(dock->height(), 140) << dock->objectName().toStdString();
        ++docksShown;
    }
    EXPECT_GE(docksShown, 2) << "the summary and the incidents beside the 3D view";
    EXPECT_GT(view, frame.width() * frame.height() / 4) << "the 3D view takes at least a quarter of the window";
}

TEST(WindowLook, FirstWindowGeometryIsEightyPercentCentredOnAnyScreen) {
    const QRect small(0, 0, 1280, 720), offset(1920, 0, 2560, 1440);
    EXPECT_EQ(firstWindowGeometry(small), QRect(128, 72, 1024, 576));
    EXPECT_EQ(firstWindowGeometry(offset).center(), offset.center());
    EXPECT_EQ(firstWindowGeometry(offset).size(), QSize(2048, 1152));
}

TEST(WindowLook, TheSizeTheUserLeftIsRestoredInsteadOfTheFirstWindow) {
    QApplication& app = test::guiApp();
    (void)app;
    FreshSettings settings;
    {
        MainWindow window;
        window.show();
        window.resize(1300, 760);
        QApplication::processEvents();
        window.close();
    }
    MainWindow again;
    again.restoreLayout();
    again.show();
    QApplication::processEvents();
    EXPECT_EQ(again.size(), QSize(1300, 760));
}

TEST(WindowLook, TheWindowFitsASmallScreen) {
    test::guiApp();
    FreshSettings settings;
    MainWindow window;
    window.show();
    QApplication::processEvents();
    // A 1280x720 screen less a taskbar: the window may be made as small as that.
    EXPECT_LE(window.minimumSizeHint().width(), 1024);
    EXPECT_LE(window.minimumSizeHint().height(), 660);
}

double lightness(QColor c) { return c.lightnessF() * 255; }

// A pixel of a rendered frame at a point in VTK's display pixels (origin bottom-left).
QColor pixelAt(const QImage& frame, double x, double y) {
    return frame.pixelColor(static_cast<int>(x), frame.height() - 1 - static_cast<int>(y));
}

// How far from `background` the lightness of the pixels in the area goes: the text drawn there.
double mostDistantLightness(const QImage& frame, const ScreenRect& area, double background) {
    double most = 0;
    for (int y = static_cast<int>(area.y0); y < static_cast<int>(area.y1); ++y)
        for (int x = static_cast<int>(area.x0); x < static_cast<int>(area.x1); ++x)
            most = std::max(most, std::abs(lightness(pixelAt(frame, x, y)) - background));
    return most;
}

TEST(WindowLook, TheDarkThemeRecoloursThe3DViewItsLegendIconsAndCharts) {
    TinyRunWindow w;
    FabricView* fabric = w.window.replayPanel()->fabricView();
    const QImage before = fabric->renderImage();
    EXPECT_GT(lightness(before.pixelColor(2, 2)), 180) << "light floor in the light theme";

    applyTheme(Theme::Dark);
    QApplication::processEvents();
    const QImage dark = fabric->renderImage();
    EXPECT_LT(lightness(dark.pixelColor(2, 2)), 60) << "the floor goes dark with the window";

    // The legend in the view: a dark panel, and its text stands out from it in the pixels drawn.
    const SceneLegend& legend = fabric->legend();
    ASSERT_TRUE(legend.visible());
    const ScreenRect panel = legend.panelRect();
    const QColor legendBackground = pixelAt(dark, panel.x1 - 3, panel.y0 + 3);
    EXPECT_LT(lightness(legendBackground), 100);
    EXPECT_GT(mostDistantLightness(dark, legend.textRect(0), lightness(legendBackground)), 120);
    EXPECT_GT(mostDistantLightness(dark, legend.textRect(5), lightness(legendBackground)), 120);
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS"))
        dark.copy(0, dark.height() - static_cast<int>(panel.y1) - 4, static_cast<int>(panel.x1) + 4, static_cast<int>(panel.y1) + 4)
            .save(QString("%1/dark_legend.png").arg(dir));

    // The play button's icon: its brightest pixel far from the button's background.
    auto* play = w.window.findChild<QToolButton*>("playPause");
    ASSERT_NE(play, nullptr);
    const QImage icon = play->grab().toImage();
    const double background = lightness(icon.pixelColor(1, 1));
    double brightest = 0;
    for (int y = 0; y < icon.height(); ++y)
        for (int x = 0; x < icon.width(); ++x) brightest = std::max(brightest, lightness(icon.pixelColor(x, y)));
    EXPECT_GT(brightest - background, 120) << "the play icon is visible on the dark button";

    // The charts: a dark background, titles in the theme's text colour.
    auto* causes = w.window.findChild<QChartView*>("causesChart");
    ASSERT_NE(causes, nullptr);
    const QImage chart = causes->grab().toImage();
    EXPECT_LT(lightness(chart.pixelColor(chart.width() - 3, chart.height() / 2)), 80);
    EXPECT_EQ(causes->chart()->titleBrush().color(), QApplication::palette().color(QPalette::Text));
    maybeSave(*causes, "dark_chart");
    maybeSave(w.window, "dark_window");

    applyTheme(Theme::Light);
    QApplication::processEvents();
    EXPECT_GT(lightness(fabric->renderImage().pixelColor(2, 2)), 180) << "and light again";
}

// The colour of the legend's swatch for the entry whose text starts so, as drawn in the view.
QColor legendColour(FabricView& view, const std::string& prefix) {
    const QImage frame = view.renderImage();
    const SceneLegend& legend = view.legend();
    for (std::size_t i = 0; i < legend.entries().size(); ++i)
        if (legend.entries()[i].text.starts_with(prefix)) {
            const ScreenRect swatch = legend.swatchRect(i);
            return pixelAt(frame, (swatch.x0 + swatch.x1) / 2, (swatch.y0 + swatch.y1) / 2);
        }
    return {};
}

TEST(WindowLook, TheColourBlindSafePaletteRecoloursTheGpusAndIsRemembered) {
    TinyRunWindow w;
    FabricView& legend = *w.window.replayPanel()->fabricView();
    auto* action = w.window.findChild<QAction*>("colourBlindSafeAction");
    ASSERT_TRUE(action);
    EXPECT_EQ(legendColour(legend, "failed"), QColor(220, 30, 30));
    const GpuVisual failed{GpuState::Failed, 0, false, 0};

    action->trigger();
    EXPECT_EQ(legendColour(legend, "failed"), QColor(213, 94, 0)) << "Okabe-Ito vermillion";
    EXPECT_EQ(legendColour(legend, "checkpoint"), QColor(0, 114, 178));
    EXPECT_EQ(gpuColour(failed), (Rgb{213, 94, 0})) << "the 3D view's GPUs take it too";
    EXPECT_TRUE(QSettings().value("colourBlindSafe").toBool());

    action->trigger();
    EXPECT_EQ(legendColour(legend, "failed"), QColor(220, 30, 30));
    EXPECT_EQ(gpuColour(failed), kFailedColour);
    EXPECT_FALSE(QSettings().value("colourBlindSafe").toBool());
}

TEST(WindowLook, TheColourBlindSafePaletteReachesAFabricViewOutsideTheMainWindow) {
    // A comparison or presentation window's 3D view is no panel of the main window: it
    // follows the palette by itself (state_palette.h), as every view that draws states does.
    TinyRunWindow w;
    FabricView other;
    other.resize(600, 400);
    other.setRun(std::make_shared<const faultline::Run>(test::tinyRun()));
    other.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&other));
    auto* action = w.window.findChild<QAction*>("colourBlindSafeAction");
    ASSERT_TRUE(action);
    EXPECT_EQ(legendColour(other, "failed"), QColor(220, 30, 30));
    QSignalSpy changed(&StatePaletteChoice::instance(), &StatePaletteChoice::changed);
    action->trigger();
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(StatePaletteChoice::instance().kind(), StatePaletteKind::ColourBlindSafe);
    EXPECT_EQ(legendColour(other, "failed"), QColor(213, 94, 0));
    action->trigger();
    EXPECT_EQ(legendColour(other, "failed"), QColor(220, 30, 30));
    setStatePalette(StatePaletteKind::Standard);
    EXPECT_EQ(changed.count(), 2) << "choosing the palette in use changes nothing";
}

TEST(WindowLook, SmoothEdgesSoftenTheRacksEdgesAndAreRemembered) {
    TinyRunWindow w;
    FabricView* fabric = w.window.replayPanel()->fabricView();
    auto* action = w.window.findChild<QAction*>("smoothEdgesAction");
    ASSERT_NE(action, nullptr);
    EXPECT_FALSE(fabric->smoothEdges()) << "off at first: too slow on a software rasteriser";
    const QImage sharp = fabric->renderImage();
    action->trigger();
    EXPECT_TRUE(fabric->smoothEdges());
    EXPECT_TRUE(QSettings().value("smoothEdges").toBool());
    const QImage smooth = fabric->renderImage();
    // Anti-aliasing blends edge pixels: the picture has more distinct colours than before.
    auto colours = [](const QImage& image) {
        std::set<QRgb> seen;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) seen.insert(image.pixel(x, y));
        return seen.size();
    };
    EXPECT_GT(colours(smooth), colours(sharp));
    action->trigger();
    EXPECT_FALSE(fabric->smoothEdges());
}

TEST(WindowLook, AmbientOcclusionDarkensTheCreasesAndIsRemembered) {
    TinyRunWindow w;
    FabricView* fabric = w.window.replayPanel()->fabricView();
    auto* occlusion = w.window.findChild<QAction*>("ambientOcclusionAction");
    auto* smooth = w.window.findChild<QAction*>("smoothEdgesAction");
    ASSERT_TRUE(occlusion && smooth);
    EXPECT_FALSE(fabric->ambientOcclusion()) << "off at first: costly on a software rasteriser";
    const QImage flat = fabric->renderImage();
    occlusion->trigger();
    EXPECT_TRUE(fabric->ambientOcclusion());
    EXPECT_TRUE(QSettings().value("ambientOcclusion").toBool());
    const QImage shaded = fabric->renderImage();
    ASSERT_EQ(flat.size(), shaded.size());
    // Where cabinets meet the floor and trays meet their cabinets the picture darkens; almost
    // nothing lightens.
    long darker = 0, lighter = 0;
    for (int y = 0; y < flat.height(); ++y)
        for (int x = 0; x < flat.width(); ++x) {
            const double d = lightness(shaded.pixelColor(x, y)) - lightness(flat.pixelColor(x, y));
            darker += d < -8;
            lighter += d > 8;
        }
    const long pixels = static_cast<long>(flat.width()) * flat.height();
    EXPECT_GT(darker, pixels / 200) << "at least half a percent of the view in a crease";
    EXPECT_LT(lighter * 5, darker);
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS")) {
        flat.save(QString("%1/ambient_occlusion_off.png").arg(dir));
        shaded.save(QString("%1/ambient_occlusion.png").arg(dir));
    }

    // With smooth edges too: both passes at once, still shaded.
    smooth->trigger();
    EXPECT_TRUE(fabric->smoothEdges() && fabric->ambientOcclusion());
    const QImage both = fabric->renderImage();
    long stillDarker = 0;
    for (int y = 0; y < flat.height(); ++y)
        for (int x = 0; x < flat.width(); ++x) stillDarker += lightness(both.pixelColor(x, y)) - lightness(flat.pixelColor(x, y)) < -8;
    EXPECT_GT(stillDarker, pixels / 200);
    {
        MainWindow next;  // the next start
        next.restoreLayout();
        EXPECT_TRUE(next.replayPanel()->fabricView()->ambientOcclusion());
    }
    smooth->trigger();
    occlusion->trigger();
    EXPECT_FALSE(fabric->ambientOcclusion());
    EXPECT_FALSE(QSettings().value("ambientOcclusion").toBool());
}

TEST(WindowLook, SelectingAnIncidentShowsItsHardwareInTheInspector) {
    TinyRunWindow w;
    const auto incidents = buildIncidents(test::tinyRun());
    std::vector<const Incident*> withGpu;
    for (const Incident& i : incidents)
        if (!i.gpus.empty() && (withGpu.empty() || i.gpus.front() != withGpu.front()->gpus.front())) withGpu.push_back(&i);
    ASSERT_GE(withGpu.size(), 2u) << "two incidents on different GPUs";
    auto* view = w.window.findChild<IncidentView*>("incidentView");
    InspectorView* inspector = w.window.replayPanel()->inspector();
    const faultline::Run run = test::tinyRun();
    for (const Incident* incident : {withGpu[0], withGpu[1]}) {
        ASSERT_TRUE(view->selectIncident(incident->id));
        // The failed host, switch or cable itself where one failed (its blast radius shows),
        // else the incident's first GPU.
        const ComponentRef failed = failedPart(run, *incident);
        const ComponentRef expected = failed.kind != ComponentKind::None && failed.kind != ComponentKind::Gpu
                                          ? failed
                                          : ComponentRef{ComponentKind::Gpu, incident->gpus.front()};
        EXPECT_EQ(inspector->part(), expected) << "incident " << incident->id;
        EXPECT_EQ(w.window.replayPanel()->fabricView()->selected(), expected);
    }
}

// At 1280x720 (and 1366x768) every chart and tile of the summary and charts docks shows its
// text whole: they scroll, or stack, rather than cut it.
TEST(WindowLook, NoTextIsCutShortOnASmallScreen) {
    TinyRunWindow w;
    for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)}) {
        w.window.resize(size);
        for (const char* dockName : {"summaryDock", "chartsDock"}) {
            auto* dock = w.window.findChild<QDockWidget*>(dockName);
            ASSERT_NE(dock, nullptr);
            dock->raise();
            QApplication::processEvents();
            QApplication::processEvents();
            const QStringList cut = test::cutTexts(w.window);
            EXPECT_TRUE(cut.isEmpty()) << size.width() << "x" << size.height() << ", " << dockName << ": "
                                       << cut.join(" | ").toStdString();
            const QString shot = QString("small_screen_%1x%2_%3").arg(size.width()).arg(size.height()).arg(dockName);
            maybeSave(w.window, shot.toUtf8().constData());
        }
    }
}

// On a 1280x720 or 1366x768 screen (a window shrunk to it) the 3D view keeps the largest
// area, the docks having given way, and its legend takes at most a fifth of its height.
TEST(WindowLook, OnASmallScreenThe3DViewIsLargestAndItsLegendLow) {
    TinyRunWindow w;
    FabricView* view = w.window.replayPanel()->fabricView();
    for (const QSize size : {QSize(1280, 720), QSize(1366, 768)}) {
        w.window.resize(size);
        // The docks give way once the new size is laid out.
        EXPECT_TRUE(QTest::qWaitFor([&] {
            for (QDockWidget* dock : w.window.findChildren<QDockWidget*>())
                if (dock->isVisible() && !dock->visibleRegion().isEmpty() && area(dock) >= area(view)) return false;
            return true;
        }, 30'000)) << size.width() << "x" << size.height() << ": a dock is larger than the 3D view";
        int docksShown = 0;
        for (QDockWidget* dock : w.window.findChildren<QDockWidget*>()) {
            if (dock->isVisible() && !dock->visibleRegion().isEmpty()) {
                EXPECT_GT(area(view), area(dock)) << dock->objectName().toStdString() << " at " << size.width() << "x" << size.height();
                ++docksShown;
            }
        }
        EXPECT_GE(docksShown, 1) << size.width() << "x" << size.height();
        view->renderImage();
        const ScreenRect legend = view->legend().panelRect();
        const int viewHeight = view->renderWidget()->renderWindowHeight();
        EXPECT_LE(legend.y1 - legend.y0, viewHeight / 5.0) << size.width() << "x" << size.height() << ": the legend is "
                                                           << legend.y1 - legend.y0 << " of " << viewHeight << " pixels high";
        maybeSave(w.window, QString("layout_%1x%2").arg(size.width()).arg(size.height()).toUtf8().constData());
    }
}

// A click on the legend folds it to its title, a second unfolds it; the menu shows the state.
TEST(WindowLook, TheLegendFoldsWithAClick) {
    TinyRunWindow w;
    w.window.resize(1280, 720);
    FabricView* view = w.window.replayPanel()->fabricView();
    VtkRenderWidget* render = view->renderWidget();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(render->surfaceWindow()));
    view->renderImage();
    const ScreenRect open = view->legend().panelRect();
    const double dpr = render->devicePixelRatioF();
    const QPoint inside(static_cast<int>((open.x0 + 10) / dpr), static_cast<int>((render->renderWindowHeight() - (open.y0 + open.y1) / 2) / dpr));
    auto* fold = w.window.findChild<QAction*>("foldLegendAction");
    ASSERT_NE(fold, nullptr);
    QTest::mouseClick(render->surfaceWindow(), Qt::LeftButton, {}, inside);  // the first click focuses the view
    QTest::mouseClick(render->surfaceWindow(), Qt::LeftButton, {}, inside);
    EXPECT_TRUE(view->legendCollapsed());
    EXPECT_TRUE(fold->isChecked());
    view->renderImage();
    const ScreenRect folded = view->legend().panelRect();
    EXPECT_LE(folded.y1 - folded.y0, (open.y1 - open.y0) * 0.55) << "folded, only the title is left: " << folded.y1 - folded.y0 << " of " << open.y1 - open.y0;
    EXPECT_EQ(view->selected().kind, ComponentKind::None) << "a click on the legend picks nothing behind it";
    fold->trigger();
    EXPECT_FALSE(view->legendCollapsed());
}

// View > Reset Layout puts back every dock the user closed or floated, and the 3D view's share.
TEST(WindowLook, ResetLayoutBringsBackEveryDock) {
    TinyRunWindow w;
    auto* summary = w.window.findChild<QDockWidget*>("summaryDock");
    auto* incidents = w.window.findChild<QDockWidget*>("incidentsDock");
    summary->close();
    incidents->setFloating(true);
    w.window.findChild<QDockWidget*>("timelineDock")->close();
    QApplication::processEvents();
    auto* reset = w.window.findChild<QAction*>("resetLayoutAction");
    ASSERT_NE(reset, nullptr);
    reset->trigger();
    QApplication::processEvents();
    for (const char* name : {"summaryDock", "chartsDock", "incidentsDock", "timelineDock", "jobsDock"}) {
        auto* dock = w.window.findChild<QDockWidget*>(name);
        EXPECT_FALSE(dock->isHidden()) << name;
        EXPECT_FALSE(dock->isFloating()) << name;
    }
    EXPECT_FALSE(summary->visibleRegion().isEmpty()) << "the summary is the tab in front again";
    EXPECT_FALSE(incidents->visibleRegion().isEmpty());
    const int view = area(w.window.replayPanel()->fabricView());
    for (QDockWidget* dock : w.window.findChildren<QDockWidget*>()) {
        if (dock->isVisible() && !dock->visibleRegion().isEmpty()) {
            EXPECT_GT(view, area(dock)) << dock->objectName().toStdString();
        }
    }
}

// File > Open Recent lists the runs and comparisons opened, newest first, at most ten, and
// opens one again.
TEST(WindowLook, OpenRecentListsTheLastRunsAndComparisons) {
    TinyRunWindow w;  // opened tiny.faultline
    QMenu* recent = w.window.findChild<QMenu*>("openRecentMenu");
    ASSERT_NE(recent, nullptr);
    const QString tiny = QFileInfo(QString::fromStdString(w.path)).absoluteFilePath();
    ASSERT_FALSE(recentEntries().isEmpty());
    EXPECT_EQ(recentEntries().front().path, tiny);
    rememberRecent({tiny, tiny});  // a comparison of the run with itself
    for (int i = 0; i < 12; ++i) rememberRecent({QString("/nowhere/run%1.faultline").arg(i), {}});
    EXPECT_EQ(recentEntries().size(), kMaxRecent);
    EXPECT_EQ(recentEntries().front().path, "/nowhere/run11.faultline");
    rememberRecent({tiny, {}});
    EXPECT_EQ(recentEntries().front(), (RecentEntry{tiny, {}}));
    EXPECT_EQ(recentEntries().size(), kMaxRecent);

    emit recent->aboutToShow();
    QStringList texts;
    QAction* first = nullptr;
    for (QAction* a : recent->actions())
        if (!a->isSeparator()) {
            texts << a->text();
            if (!first) first = a;
        }
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->text(), "tiny.faultline");
    EXPECT_TRUE(first->isEnabled());
    EXPECT_TRUE(texts.contains("run10.faultline (moved or deleted)")) << texts.join(", ").toStdString();
    QSignalSpy shown(&w.window, &MainWindow::runShown);
    first->trigger();
    EXPECT_TRUE(shown.wait(20'000));
    w.window.findChild<QAction*>("clearRecentAction")->trigger();
    EXPECT_TRUE(recentEntries().isEmpty());
}

}  // namespace
}  // namespace faultline
