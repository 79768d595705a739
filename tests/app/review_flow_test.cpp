// A review that flows: every panel explains itself on hover and moves the others. Hover a
// chart or a timeline mark for its value; click a root cause's bar to list its incidents and
// mark them on the timeline; the timeline follows the replay without fighting the user; the
// inspector's history and an incident's chain move the replay; search by prefix or
// substring with a completion list; trace-only runs read in milliseconds.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"
#include "realdata.h"

#include "analysis/incidents.h"
#include "analysis/run_search.h"
#include "analysis/summary.h"
#include "app/main_window.h"
#include "importers/importer.h"
#include "model/replay_state.h"
#include "model/run_file.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/replay_controls.h"
#include "views/replay_panel.h"
#include "views/summary_view.h"
#include "views/time_chart_view.h"
#include "views/timeline_ticks.h"
#include "views/timeline_view.h"
#include "widgets/heat_map.h"
#include "widgets/nice_ticks.h"

#include <QAbstractItemView>
#include <QDockWidget>
#include <QHelpEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtCharts/QChartView>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTest>
#include <QTextBlock>
#include <QToolTip>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <gtest/gtest.h>

#include <set>

#include <fstream>

namespace faultline {
namespace {

using test::maybeSave;
using test::ScratchDir;

std::shared_ptr<const faultline::Run> tinyShared() {
    return std::shared_ptr<const faultline::Run>(&test::tinyRun(), [](const faultline::Run*) {});
}

void moveMouse(QWidget* w, QPoint pos, Qt::MouseButtons buttons = Qt::NoButton) {
    QMouseEvent move(QEvent::MouseMove, pos, w->mapToGlobal(pos), Qt::NoButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &move);
}

void drag(QWidget* w, QPoint from, QPoint to) {
    QMouseEvent press(QEvent::MouseButtonPress, from, w->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w, &press);
    moveMouse(w, (from + to) / 2, Qt::LeftButton);
    moveMouse(w, to, Qt::LeftButton);
    QMouseEvent release(QEvent::MouseButtonRelease, to, w->mapToGlobal(to), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(w, &release);
}

QString hoverTip(QWidget* w, QPoint pos) {
    QHelpEvent help(QEvent::ToolTip, pos, w->mapToGlobal(pos));
    QApplication::sendEvent(w, &help);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

// Where tests save what they render, for a person to look at: FAULTLINE_TEST_SHOTS=DIR.

struct OpenRun : test::WindowOnRun {
    explicit OpenRun(const faultline::Run& run = test::tinyRun()) : WindowOnRun(run, {1600, 1000}) { EXPECT_TRUE(shown); }
};

TEST(ReviewFlow, HoveringAChartShowsTheValueUnderTheMouse) {
    test::guiApp();
    ChartsView view;
    view.resize(1400, 1000);
    view.setRun(tinyShared());
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    auto* ettr = view.findChild<TimeChartView*>("ettrChart");
    QXYSeries* daily = nullptr;
    for (QAbstractSeries* s : ettr->chart()->series())
        if (s->objectName() == "ettrDaily") daily = static_cast<QXYSeries*>(s);
    ASSERT_NE(daily, nullptr);
    ASSERT_GT(daily->count(), 0);
    const QPointF point = daily->at(0);
    const QPoint at = ettr->mapFromScene(ettr->chart()->mapToPosition(point, daily));
    const QString expected = QString::number(point.y(), 'f', 1);
    EXPECT_TRUE(ettr->toolTipAt(at).contains(expected)) << ettr->toolTipAt(at).toStdString() << " lacks " << expected.toStdString();
    moveMouse(ettr->viewport(), at);
    ASSERT_TRUE(QToolTip::isVisible());
    EXPECT_TRUE(QToolTip::text().contains("per day")) << QToolTip::text().toStdString();
    EXPECT_TRUE(QToolTip::text().contains(expected)) << QToolTip::text().toStdString();
}

TEST(ReviewFlow, ClickingARootCauseBarListsItsIncidentsAndMarksThemOnTheTimeline) {
    OpenRun r;
    auto* charts = r.window.findChild<ChartsView*>("chartsView");
    r.window.findChild<QDockWidget*>("chartsDock")->raise();
    QApplication::processEvents();
    auto* causes = charts->findChild<QChartView*>("causesChart");
    // The charts scroll in their dock: bring the causes into view, as a user would.
    for (QWidget* w = charts; w; w = w->parentWidget())
        if (auto* scroll = qobject_cast<QScrollArea*>(w)) scroll->ensureWidgetVisible(causes, 0, 0);
    QApplication::processEvents();
    const RunSummary summary = summarize(test::tinyRun());
    ASSERT_FALSE(summary.causes.empty());
    const RootCause top = summary.causes.front().cause;
    const auto rows = charts->causeRows();
    const int row = static_cast<int>(std::find(rows.begin(), rows.end(), top) - rows.begin());
    auto* series = static_cast<QAbstractBarSeries*>(causes->chart()->series().front());
    const QPointF bar = causes->chart()->mapToPosition(QPointF(summary.causes.front().count / 2.0, row), series);
    // Hovering the bar names the cause and its count.
    moveMouse(causes->viewport(), causes->mapFromScene(bar) + QPoint(0, 1));
    moveMouse(causes->viewport(), causes->mapFromScene(bar));
    ASSERT_TRUE(QToolTip::isVisible());
    EXPECT_TRUE(QToolTip::text().contains(QString("%1 interruption").arg(summary.causes.front().count))) << QToolTip::text().toStdString();
    QTest::mouseClick(causes->viewport(), Qt::LeftButton, {}, causes->mapFromScene(bar));

    auto* incidents = r.window.findChild<IncidentView*>("incidentView");
    ASSERT_EQ(incidents->causeFilter(), top);
    const auto all = buildIncidents(test::tinyRun());
    const auto expected = std::count_if(all.begin(), all.end(), [&](const Incident& i) { return !i.planned && i.cause == top; });
    EXPECT_EQ(incidents->visibleIncidentCount(), expected);
    EXPECT_EQ(r.window.findChild<TimelineView*>("timelineView")->highlightedCause(), top);
    // ... and in 3D: the racks of every failure of that cause are outlined, no others.
    const faultline::Run run = test::tinyRun();
    std::set<std::int32_t> racks;
    for (const Failure& f : run.failures)
        if (f.cause == top)
            for (std::int32_t g : f.gpus) racks.insert(run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(g)].host)].rack);
    auto* fabric = r.window.findChild<FabricView*>();
    ASSERT_NE(fabric, nullptr);
    ASSERT_FALSE(racks.empty());
    EXPECT_EQ(fabric->markedRacks(), std::vector<std::int32_t>(racks.begin(), racks.end()));
    r.window.findChild<QDockWidget*>("timelineDock")->raise();
    QApplication::processEvents();
    maybeSave(r.window, "review-flow-cause-filter");
    r.window.findChild<QDockWidget*>("incidentsDock")->raise();
    // The chip in the list clears the filter and the highlight.
    auto* chip = incidents->findChild<QPushButton*>("causeFilter");
    ASSERT_TRUE(chip->isVisible());
    QTest::mouseClick(chip, Qt::LeftButton);
    EXPECT_EQ(incidents->causeFilter(), std::nullopt);
    EXPECT_EQ(incidents->visibleIncidentCount(), static_cast<int>(all.size()));
    EXPECT_EQ(r.window.findChild<TimelineView*>("timelineView")->highlightedCause(), std::nullopt);
    EXPECT_EQ(charts->highlightedCause(), std::nullopt);
    EXPECT_TRUE(fabric->markedRacks().empty());
}

TEST(ReviewFlow, TimelineMarksAndLegendExplainThemselves) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 300);
    view.setRun(tinyShared());
    view.show();
    const Downtime* unplanned = nullptr;
    for (const Downtime& d : test::tinyRun().downtimes)
        if (!d.planned && d.end - d.begin > 10 * kMinute) unplanned = &d;
    ASSERT_NE(unplanned, nullptr);
    view.setVisibleRange(unplanned->begin - kHour, unplanned->end + kHour);
    const int mid = static_cast<int>((view.xOf(unplanned->begin + kMinute) + view.xOf(unplanned->end)) / 2);
    const QString tip = hoverTip(&view, QPoint(mid, 38 + 20));
    const std::string_view cause = rootCauseLabel(unplanned->cause);
    EXPECT_TRUE(tip.contains(QString::fromUtf8(cause.data(), static_cast<qsizetype>(cause.size())))) << tip.toStdString();
    EXPECT_TRUE(tip.contains("down")) << tip.toStdString();
    // The legend along the bottom names every kind of mark.
    const QRect legend = view.legendRect();
    EXPECT_TRUE(view.toolTipAt(QPoint(70, legend.center().y())).startsWith("training")) << view.toolTipAt(QPoint(70, legend.center().y())).toStdString();
    QStringList named;
    for (int x = 64; x < view.width(); x += 6) named << view.toolTipAt(QPoint(x, legend.center().y())).section(':', 0, 0);
    for (const char* mark : {"GPU", "network", "planned", "lost work", "failure", "ckpt save", "collective", "now"})
        EXPECT_TRUE(named.contains(mark)) << mark;
}

TEST(ReviewFlow, ADozenWheelClicksZoomFromTheWholeRunToAMillisecond) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 300);
    view.setRun(tinyShared());
    view.show();
    const QPointF at(800, 100);
    auto click = [&] {
        QWheelEvent wheel(at, view.mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&view, &wheel);
    };
    for (int i = 0; i < 6; ++i) click();
    EXPECT_LT(view.visibleEnd() - view.visibleBegin(), kHour) << "six clicks go well past hours";
    for (int i = 0; i < 6; ++i) click();
    EXPECT_LE(view.visibleEnd() - view.visibleBegin(), 2 * kMillisecond);
}

TEST(ReviewFlow, TimelineFollowsTheReplayButNotWhileTheUserPans) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 300);
    view.setRun(tinyShared());
    view.show();
    view.setVisibleRange(0, 2 * kHour);
    view.setTime(kHour);
    // Playing on past the view's edge: the view turns the page.
    view.setTime(3 * kHour);
    EXPECT_LE(view.visibleBegin(), 3 * kHour);
    EXPECT_GE(view.visibleEnd(), 3 * kHour);
    EXPECT_EQ(view.visibleEnd() - view.visibleBegin(), 2 * kHour) << "following keeps the zoom";
    // The user drags the view away to look at something else: playing on leaves it there.
    drag(&view, QPoint(1500, 50), QPoint(100, 50));
    const Nanos begin = view.visibleBegin();
    ASSERT_FALSE(view.time() >= view.visibleBegin() && view.time() <= view.visibleEnd()) << "dragged away from the instant";
    view.setTime(view.time() + kMinute);
    EXPECT_EQ(view.visibleBegin(), begin);
    view.setTime(test::tinyRun().info.duration - kHour);  // a jump, right after the user panned
    EXPECT_EQ(view.visibleBegin(), begin);
}

TEST(ReviewFlow, TimelineTicksAreRoundAndTheirLabelsNeverOverlap) {
    test::guiApp();
    TimelineView view;
    const QFontMetrics metrics = view.fontMetrics();
    const std::int64_t start = 1'741'046'400LL * kSecond + 123'456'789;  // 2025-03-04, off any round second
    for (Nanos span : {2 * kMillisecond, 21 * kMillisecond, 3 * kSecond, 2 * kHour, 8 * kHour, 54 * kDay, 1526 * kDay}) {
        const double pixelsPerNano = 1500.0 / static_cast<double>(span);
        const Nanos step = chooseTimelineTick(pixelsPerNano, [&](Nanos s) {
            return metrics.horizontalAdvance(QString::fromStdString(timelineTickLabel(start, 0, s)));
        });
        Nanos previous = -1;
        int ticks = 0;
        for (Nanos t = firstTickAtOrAfter(start, 0, step); t <= span; t = nextTick(start, t, step), ++ticks) {
            const QString label = QString::fromStdString(timelineTickLabel(start, t, step));
            if (previous >= 0) {
                const double gap = static_cast<double>(t - previous) * pixelsPerNano;
                EXPECT_GT(gap, metrics.horizontalAdvance(label) + 4) << "span " << span << ": " << label.toStdString();
            }
            if (step < kDay) {
                EXPECT_EQ((start + t) % step, 0) << "a round tick: " << label.toStdString();
            }
            previous = t;
        }
        EXPECT_GE(ticks, 2) << "span " << span;
    }
    EXPECT_EQ(niceScale(0, 150, 5).step, 50);
    EXPECT_EQ(niceScale(67.3, 89.7, 5).step, 5);
    EXPECT_EQ(niceScale(67.3, 89.7, 5).min, 65);
}

TEST(ReviewFlow, InspectorHistoryAndIncidentChainMoveTheReplay) {
    OpenRun r;
    auto* replay = r.window.replayPanel();
    const auto incidents = buildIncidents(test::tinyRun());
    const auto withGpu = std::find_if(incidents.begin(), incidents.end(), [](const Incident& i) { return !i.gpus.empty() && i.chain.size() > 2; });
    ASSERT_NE(withGpu, incidents.end());
    auto* view = r.window.findChild<IncidentView*>("incidentView");
    r.window.findChild<QDockWidget*>("incidentsDock")->raise();
    ASSERT_TRUE(view->selectIncident(withGpu->id));
    auto* chain = view->findChild<QPlainTextEdit*>("incidentChain");
    QApplication::processEvents();
    const QTextBlock last = chain->document()->findBlockByNumber(static_cast<int>(withGpu->chain.size()) - 1);
    const QRect line = chain->cursorRect(QTextCursor(last));
    QTest::mouseClick(chain->viewport(), Qt::LeftButton, {}, line.center());
    EXPECT_EQ(replay->time(), withGpu->chain.back().time);

    // The inspector shows the GPU's history; a click on an entry goes there.
    auto* history = replay->inspector()->findChild<QListWidget*>("inspectorHistory");
    ASSERT_GT(history->count(), 0);
    QListWidgetItem* item = history->item(0);
    const Nanos when = item->data(Qt::UserRole).value<Nanos>();
    replay->setTime(0);
    QTest::mouseClick(history->viewport(), Qt::LeftButton, {}, history->visualItemRect(item).center());
    EXPECT_EQ(replay->time(), when);
}

TEST(ReviewFlow, SearchCompletesPrefixesAndSubstringsOfEveryKindAndClearsTheOldOutline) {
    OpenRun r(test::tracedTinyRun());
    InspectorView* inspector = r.window.replayPanel()->inspector();
    auto* find = inspector->findChild<QLineEdit*>("findPart");
    const Topology& t = test::tracedTinyRun().topology;
    const std::string rack = t.racks.at(3).name;
    find->setFocus();
    find->clear();
    QTest::keyClicks(find, QString::fromStdString(rack.substr(0, rack.size() - 1)));
    auto* model = qobject_cast<QStringListModel*>(inspector->completer()->model());
    ASSERT_NE(model, nullptr);
    ASSERT_GT(model->rowCount(), 0);
    for (const QString& s : model->stringList().mid(0, 5)) EXPECT_TRUE(s.startsWith(QString::fromStdString(rack.substr(0, rack.size() - 1)))) << s.toStdString();
    EXPECT_TRUE(inspector->completer()->popup()->isVisible());

    QSignalSpy found(inspector, &InspectorView::found);
    EXPECT_TRUE(inspector->searchFor(QString::fromStdString(rack))) << "racks are searchable";
    EXPECT_TRUE(inspector->findChild<QLabel*>("inspectorTitle")->text().contains(QString::fromStdString(rack)));
    // A PCI bus id by its tail (a GPU with that id), a rank, an incident.
    const std::string pci = t.gpus.at(13).pciBusId;
    ASSERT_FALSE(pci.empty());
    EXPECT_TRUE(inspector->searchFor(QString::fromStdString(pci.substr(5))));
    ASSERT_EQ(inspector->part().kind, ComponentKind::Gpu);
    EXPECT_EQ(t.gpus.at(static_cast<std::size_t>(inspector->part().index)).pciBusId, pci);
    EXPECT_TRUE(inspector->searchFor("rank 5"));
    EXPECT_EQ(inspector->part(), (ComponentRef{ComponentKind::Gpu, test::tracedTinyRun().rankToGpu.at(5)}));
    const auto incidents = buildIncidents(test::tracedTinyRun());
    inspector->searchFor("incident 2");
    EXPECT_EQ(r.window.replayPanel()->time(), incidents.at(1).begin);
    // Nothing found: the old outline goes.
    found.clear();
    EXPECT_FALSE(inspector->searchFor("no-such-thing-anywhere"));
    ASSERT_EQ(found.count(), 1);
    EXPECT_EQ(found.at(0).at(0).value<ComponentRef>().kind, ComponentKind::None);
    EXPECT_EQ(r.window.replayPanel()->fabricView()->selected().kind, ComponentKind::None);
}

TEST(ReviewFlow, RunSearchRanksPrefixesBeforeSubstrings) {
    const std::vector<Incident> incidents = buildIncidents(test::tracedTinyRun());
    const RunSearchIndex index(test::tracedTinyRun(), incidents);
    const std::string host = test::tracedTinyRun().topology.hosts.at(5).name;
    const auto hits = index.find(host, 20);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits.front().key, host) << "the exact name first";
    const auto inside = index.find(host.substr(1), 20);
    ASSERT_FALSE(inside.empty());
    EXPECT_NE(inside.front().key.find(host.substr(1)), std::string::npos);
    EXPECT_FALSE(index.find("RANK 1").empty()) << "case-insensitive";
    EXPECT_TRUE(index.find("zzz-nothing").empty());
}

TEST(ReviewFlow, TheSummaryLeadsWithWhatTheRunHolds) {
    OpenRun r(test::tracedTinyRun());
    const QString text = r.window.findChild<SummaryView*>("summaryView")->highlightsText();
    EXPECT_TRUE(text.contains("ranks traced over")) << text.toStdString();
    EXPECT_TRUE(text.contains("Late ranks: rank ")) << text.toStdString();
    EXPECT_TRUE(text.contains("interruptions (")) << text.toStdString();
}

TEST(ReviewFlow, ALogOnlyRunSaysWhatItsChartsCannotShow) {
    test::guiApp();
    ScratchDir dir;
    const std::string log = dir.file("node07.log");
    std::ofstream(log) << "[Tue Jan 21 04:41:44 2025] NVRM: Xid (PCI:0000:9a:00): 79, pid=1, name=python, GPU has fallen off the bus.\n"
                          "[Tue Jan 21 09:12:01 2025] NVRM: Xid (PCI:0000:18:00): 48, pid=2, name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.\n";
    auto run = std::make_shared<const faultline::Run>(importFiles({log}, {}).run);
    ChartsView charts;
    charts.resize(1200, 1000);
    charts.setRun(run);
    EXPECT_TRUE(charts.findChild<TimeChartView*>("ettrChart")->emptyMessage().contains("not enough of the run to say"));
    EXPECT_TRUE(charts.findChild<TimeChartView*>("stepTimeChart")->emptyMessage().contains("No step times"));
    EXPECT_EQ(charts.findChild<TimeChartView*>("ettrChart")->unitName(), "hours") << "a run of four and a half hours";
}

TEST(ReviewFlow, TheReplaySpeedPlaysAWholeRunInAboutAMinute) {
    test::guiApp();
    ReplayControls controls;
    controls.setDuration(54 * kDay, {});
    EXPECT_EQ(controls.speed(), 86400.0) << "54 days at a day a second";
    controls.setDuration(2 * kDay, {});
    EXPECT_EQ(controls.speed(), 3600.0);
    controls.setDuration(21 * kMillisecond, {});
    EXPECT_EQ(controls.speed(), 0.001) << "a 21 ms trace at a millisecond a second";
}

TEST(ReviewFlow, RankLanesAreLabelled) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 500);
    view.setRun(std::shared_ptr<const faultline::Run>(&test::tracedTinyRun(), [](const faultline::Run*) {}));
    const auto& records = test::tracedTinyRun().collectives;
    view.setVisibleRange(records.front().enter, records.front().enter + 30 * kSecond);
    ASSERT_TRUE(view.showsRankLanes());
    QImage image(view.size(), QImage::Format_RGB32);
    view.render(&image);
    const QRect lane = view.laneRect(0);
    int ink = 0;  // text pixels in the label column beside the first lane
    for (int y = lane.top(); y <= lane.bottom(); ++y)
        for (int x = 0; x < lane.left(); ++x) ink += image.pixelColor(x, y).lightness() < 120;
    EXPECT_GT(ink, 10) << "the lane's rank is written beside it";
}

// A short timeline dock (a 1280x720 window) once squeezed 16 rank lanes into 60 pixels, 4 a
// lane, their names written over each other. Lanes keep a readable height, the rest scroll,
// and every lane shown is named inside its own lane.
TEST(ReviewFlow, RankLanesKeepAReadableHeightAndScrollWhenManyNoNameOverlapping) {
    test::guiApp();
    TimelineView view;
    view.resize(900, 170);  // the ruler, the job's band and the checkpoints, then about 60 pixels
    view.setRun(std::shared_ptr<const faultline::Run>(&test::tracedTinyRun(), [](const faultline::Run*) {}));
    const auto& records = test::tracedTinyRun().collectives;
    view.setVisibleRange(records.front().enter, records.front().enter + 30 * kSecond);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(view.showsRankLanes());
    auto checkLanes = [&](const std::string& where) {
        const auto labels = view.laneLabels();
        ASSERT_EQ(static_cast<int>(labels.size()), view.visibleLaneCount()) << where << ": every lane shown is named";
        ASSERT_GE(labels.size(), 2u) << where;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const QRect lane = view.laneRect(view.firstVisibleLane() + static_cast<int>(i));
            EXPECT_GE(lane.height(), 12) << where << ": lane " << i << " is too thin to read";
            EXPECT_LE(lane.bottom(), view.legendRect().top()) << where << ": a lane runs under the legend";
            EXPECT_LE(QFontMetrics(labels[i].font).height(), labels[i].box.height()) << where << ": " << labels[i].text.toStdString();
            EXPECT_GE(QFontMetrics(labels[i].font).height(), 9) << where << ": " << labels[i].text.toStdString();
            if (i > 0) {
                EXPECT_FALSE(labels[i].box.intersects(labels[i - 1].box)) << where << ": " << labels[i].text.toStdString();
            }
        }
    };
    checkLanes("top");
    auto* scroll = view.findChild<QScrollBar*>("timelineLaneScroll");
    ASSERT_NE(scroll, nullptr);
    EXPECT_TRUE(scroll->isVisible()) << "256 ranks do not fit: the lanes scroll";

    // The wheel over the rank names scrolls the lanes, and leaves the time span alone.
    const Nanos span = view.visibleEnd() - view.visibleBegin();
    const QPoint overNames(10, view.laneRect(view.firstVisibleLane()).center().y());
    QWheelEvent wheel(overNames, view.mapToGlobal(overNames), {}, QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    EXPECT_EQ(view.firstVisibleLane(), 3);
    EXPECT_EQ(view.visibleEnd() - view.visibleBegin(), span);
    checkLanes("after a wheel notch");

    // The last rank is reached, named, and its tooltip is its own.
    const int lastLane = view.laneOfRank(255);
    ASSERT_GE(lastLane, 0) << "a rank past the first lanes has a lane";
    view.scrollToLane(lastLane);
    checkLanes("at the bottom");
    const auto shown = view.laneLabels();
    EXPECT_TRUE(std::any_of(shown.begin(), shown.end(), [](const TimelineView::LaneLabel& l) { return l.text == "rank 255"; }));
    EXPECT_TRUE(view.toolTipAt(view.laneRect(lastLane).center()).startsWith("rank 255")) << view.toolTipAt(view.laneRect(lastLane).center()).toStdString();
}

// The ruler's time labels are whole at any width, zoomed out and into a trace: one that would
// run past the right edge ("06:55:05.9" cut to "0") is left out, its tick line still drawn.
TEST(ReviewFlow, TheTimelinesRulerLabelsAreWholeAtAnyWidth) {
    test::guiApp();
    TimelineView view;
    view.setRun(std::shared_ptr<const faultline::Run>(&test::tracedTinyRun(), [](const faultline::Run*) {}));
    const Nanos traced = test::tracedTinyRun().collectives.front().enter;
    for (const auto& [begin, end] : {std::pair<Nanos, Nanos>{0, test::tracedTinyRun().info.duration}, {traced, traced + 37 * kMillisecond}}) {
        for (int width : {420, 777, 1100, 1213, 1913}) {
            view.resize(width, 300);
            view.setVisibleRange(begin, end);
            const auto labels = view.rulerLabels();
            EXPECT_FALSE(labels.empty()) << width;
            for (std::size_t i = 0; i < labels.size(); ++i) {
                EXPECT_LE(labels[i].box.right(), width) << labels[i].text.toStdString() << " cut at width " << width;
                if (i > 0) {
                    EXPECT_FALSE(labels[i].box.intersects(labels[i - 1].box)) << labels[i].text.toStdString() << " at width " << width;
                }
            }
        }
    }
}

TEST(ReviewFlow, ATraceOnlyRunReadsInMillisecondsWithRankLabelsAndMessages) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    ImportResult imported = importFiles({test::realData("kineto/HolisticTraceAnalysis/tests/data/trace_filter")}, {});
    auto run = std::make_shared<const faultline::Run>(std::move(imported.run));
    ASSERT_LT(run->info.duration, kMinute);
    ASSERT_FALSE(run->collectives.empty());

    ChartsView charts;
    charts.resize(1400, 1000);
    charts.setRun(run);
    charts.show();
    auto* ettr = charts.findChild<TimeChartView*>("ettrChart");
    EXPECT_EQ(ettr->unitName(), "ms");
    EXPECT_FALSE(ettr->emptyMessage().isEmpty()) << "a message, not an empty chart";
    auto* heat = charts.findChild<HeatMap*>("stragglerHeatMap");
    EXPECT_GT(heat->rows(), 0);

    TimelineView timeline;
    timeline.resize(1600, 400);
    timeline.setRun(run);
    EXPECT_TRUE(timeline.showsRankLanes()) << "the whole run is the trace";
    EXPECT_TRUE(timeline.toolTipAt(timeline.laneRect(0).center()).startsWith("rank"));

    ReplayControls controls;
    controls.setDuration(run->info.duration, {});
    EXPECT_LT(controls.speed(), 1.0) << "a run of milliseconds replays slower than real time";
    EXPECT_GT(controls.speed(), 0.0);
}

// A failure in the inspector's history says who reported it and whom the logs suspect, with
// torchrun's root-cause host and exit code, as `faultline-cli incidents` does.
TEST(ReviewFlow, InspectorNamesAFailuresReportersAndSuspects) {
    test::guiApp();
    auto run = std::make_shared<faultline::Run>(test::tinyRun());
    const auto f = std::find_if(run->failures.begin(), run->failures.end(), [](const Failure& x) { return !x.gpus.empty(); });
    ASSERT_NE(f, run->failures.end());
    f->ranks = {0, 1, 2, 4};
    f->suspectRanks = {3};
    f->detail += "; torchrun's root cause: rank 3 on r0000-h1, exit code -6 (SIGABRT)";
    const ReplayIndex replay(*run);
    InspectorView inspector;
    inspector.setRun(run, &replay);
    inspector.showPart({ComponentKind::Gpu, f->gpus.front()});
    auto* history = inspector.findChild<QListWidget*>("inspectorHistory");
    ASSERT_NE(history, nullptr);
    QStringList shown;
    for (int i = 0; i < history->count(); ++i) shown << history->item(i)->text();
    EXPECT_TRUE(shown.join("\n").contains("reported by ranks 0-2,4; suspect rank 3 (rank 3 on r0000-h1, exit code -6 (SIGABRT))"))
        << shown.join("\n").toStdString();
}

}  // namespace
}  // namespace faultline
