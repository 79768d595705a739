// Presentation mode as the room and the presenter meet it: the title card filling the
// screen in large type, the keys of slide software, View > Present (F5) from the window.
#include "app_process.h"
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "app/presentation_window.h"
#include "app/presenter_notes.h"
#include "exports/report_content.h"
#include "app/story_card.h"
#include "model/incident_notes.h"
#include "model/run_file.h"
#include "analysis/blast_radius.h"
#include "analysis/incidents.h"
#include "views/fabric/fabric_view.h"

#include <QAction>
#include <QImage>
#include <QLabel>
#include <QPointer>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <QFileInfo>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::runApp;
using test::ScratchDir;

TEST(Presentation, TitleCardFillsTheScreenInLargeType) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const QString png = QString::fromStdString(dir.file("title.png"));
    QString errors;
    ASSERT_EQ(runApp({"--screenshot", png, "--view", "present", "--size", "1920x1080", QString::fromStdString(path)}, &errors), 0)
        << errors.toStdString();
    const QImage shot(png);
    ASSERT_EQ(shot.size(), QSize(1920, 1080));
    EXPECT_EQ(shot.pixelColor(5, 5), QColor(14, 20, 32));  // the card's own background, edge to edge
    EXPECT_EQ(shot.pixelColor(1914, 1074), QColor(14, 20, 32));
    // White title type somewhere in the top third.
    int white = 0;
    for (int y = 0; y < 360; y += 2)
        for (int x = 0; x < 1920; x += 2) white += shot.pixelColor(x, y) == QColor(Qt::white);
    EXPECT_GT(white, 500);
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) shot.save(shots + "/presentation-title.png");
}

// Every figure of the title and closing cards on one line inside its tile, from a laptop to a
// 4K projector ("424 unexpected" used to wrap onto two lines and crowd its tile).
TEST(Presentation, EveryTileFitsItsTextAtEverySize) {
    test::guiApp();
    if (!QFileInfo::exists(FAULTLINE_SAMPLE_RUN)) GTEST_SKIP() << "no sample run at " << FAULTLINE_SAMPLE_RUN;
    auto run = std::make_shared<const faultline::Run>(readRunFile(FAULTLINE_SAMPLE_RUN));
    const ReportContent content = buildReportContent(run, {}, 5);
    for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080), QSize(3840, 2160)})
        for (StoryCard::Kind kind : {StoryCard::Kind::Title, StoryCard::Kind::Closing}) {
            StoryCard card;
            card.setCard(&content, kind);
            card.resize(size);
            const QImage shot = card.grab().toImage();
            EXPECT_EQ(shot.size(), size);
            EXPECT_TRUE(card.cutTexts().isEmpty()) << size.width() << "x" << size.height() << ": " << card.cutTexts().join(" | ").toStdString();
            if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty())
                shot.save(shots + QString("/presentation-%1-%2x%3.png").arg(kind == StoryCard::Kind::Title ? "title" : "closing").arg(size.width()).arg(size.height()));
        }
}

// S opens the presenter's notes in a window of their own: the slide shown, the reviewer's
// notes of its incident in full, what comes next; they follow the slides.
TEST(Presentation, PresenterNotesFollowTheSlidesInTheirOwnWindow) {
    test::guiApp();
    const faultline::Run& tiny = test::tinyRun();
    const auto worst = worstIncidents(buildIncidents(tiny), 2);
    ASSERT_EQ(worst.size(), 2u);
    IncidentNote note;
    note.incidentBegin = worst.front().begin;
    note.notes = "Swapped the GPU; the vendor confirmed an HBM fault.\nSecond line, kept whole for the presenter.";
    note.confirmedCause = RootCause::GpuHbm3Memory;
    note.tags = {"rma", "hbm"};
    auto content = std::make_shared<ReportContent>(
        buildReportContent(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &tiny), {{note.incidentBegin, note}}, 2));
    QPointer<PresentationWindow> window = new PresentationWindow(content);
    window->resize(1280, 720);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window));
    EXPECT_EQ(window->presenterNotes(), nullptr) << "optional: not open until asked";
    QTest::keyClick(window, Qt::Key_S);
    PresenterNotes* notes = window->presenterNotes();
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->isVisible());
    EXPECT_TRUE(notes->isWindow()) << "a window of its own, for the presenter's screen";
    EXPECT_TRUE(notes->findChild<QLabel*>("presenterSlide")->text().startsWith("Slide 1 of 4"));
    EXPECT_TRUE(notes->findChild<QLabel*>("presenterNext")->text().contains(QString::fromStdString(incidentTitle(worst.front()))));
    QTest::keyClick(window, Qt::Key_PageDown);
    EXPECT_TRUE(notes->findChild<QLabel*>("presenterSlide")->text().startsWith("Slide 2 of 4"));
    EXPECT_TRUE(notes->notesText().contains("Second line, kept whole for the presenter.")) << notes->notesText().toStdString();
    EXPECT_TRUE(notes->notesText().contains("Tags: rma, hbm")) << notes->notesText().toStdString();
    QTest::keyClick(window, Qt::Key_PageDown);
    EXPECT_TRUE(notes->notesText().contains("No reviewer's notes")) << notes->notesText().toStdString();
    QTest::keyClick(window, Qt::Key_S);
    EXPECT_FALSE(notes->isVisible());
    window->close();
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.isNull(); }, 30'000));
}

TEST(Presentation, KeysWalkThroughTheStoryAndEscLeaves) {
    test::guiApp();
    const faultline::Run& tiny = test::tinyRun();
    auto content = std::make_shared<ReportContent>(buildReportContent(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &tiny), {}, 3));
    auto* window = new PresentationWindow(content);
    window->resize(1280, 720);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window));
    EXPECT_EQ(window->slideCount(), 5);  // title, 3 incidents, closing
    EXPECT_TRUE(window->card()->isVisible());
    EXPECT_GE(window->card()->titlePixelSize(), 720 / 12);
    QTest::keyClick(window, Qt::Key_PageDown);
    EXPECT_EQ(window->slide(), 1);
    EXPECT_FALSE(window->card()->isVisible());
    // The camera flies, then the replay runs from before the symptom.
    EXPECT_TRUE(QTest::qWaitFor([&] { return window->time() > content->selected.front().incident.begin - 10 * kMinute; }, 30000))
        << window->time();
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) {
        QTest::qWait(6000);  // into the incident
        window->grab().save(shots + "/presentation-incident.png");
    }
    QTest::keyClick(window, Qt::Key_End);
    EXPECT_EQ(window->slide(), 4);
    EXPECT_EQ(window->card()->objectName(), "closingCard");
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) window->grab().save(shots + "/presentation-closing.png");
    QTest::keyClick(window, Qt::Key_Left);
    EXPECT_EQ(window->slide(), 3);
    QPointer<PresentationWindow> alive(window);
    QTest::keyClick(window, Qt::Key_Escape);
    EXPECT_TRUE(QTest::qWaitFor([&] { return alive.isNull(); }, 30000));  // closed and gone
}

// A story stop flies the camera as selecting the incident in the main window does: a failed
// rack switch selected, its blast radius shown and labelled, and the whole of it framed.
TEST(Presentation, AStoryStopFliesToTheWholeScopeOfItsFailedHardware) {
    test::guiApp();
    const faultline::Run& run = test::rackSwitchFailureRun();
    auto content = std::make_shared<ReportContent>(buildReportContent(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &run), {}, 100));
    const Failure& failure = test::rackSwitchFailure(run);
    int slide = -1;
    for (std::size_t i = 0; i < content->selected.size(); ++i)
        if (failedPart(run, content->selected[i].incident) == failure.component) slide = static_cast<int>(i) + 1;  // after the title
    ASSERT_GT(slide, 0) << "the switch failure is one of the story's stops";
    auto* window = new PresentationWindow(content);
    window->setAttribute(Qt::WA_DeleteOnClose, false);
    std::unique_ptr<PresentationWindow> owner(window);
    window->resize(1280, 720);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window));
    window->showSlide(slide);
    FabricView* view = window->fabricView();
    EXPECT_TRUE(view->flying()) << "the stop is flown to, not cut to";
    EXPECT_EQ(view->selected(), failure.component);
    EXPECT_EQ(view->blastRadiusShown().part, failure.component) << "its blast radius, labelled, as in the main window";
    EXPECT_EQ(view->blastRadiusShown().gpus.size(), 16u);
    QTRY_VERIFY_WITH_TIMEOUT(!view->flying(), 5000);
    const QRectF frame(QPointF(0, 0), QSizeF(view->size()));
    QRectF scope(view->positionOf(failure.component), QSizeF(0, 0));
    for (std::int32_t g : view->blastRadiusShown().gpus) {
        const QPointF at = view->gpuPosition(g);
        EXPECT_TRUE(frame.contains(at)) << "GPU " << g << " cut off but out of the frame";
        scope = scope.united(QRectF(at, QSizeF(1, 1)));
    }
    EXPECT_TRUE(frame.contains(view->positionOf(failure.component)));
    EXPECT_GT(scope.width(), frame.width() / 16) << "framed, not a speck";
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) window->grab().save(shots + "/presentation-story-stop.png");
    // Landed where the main window's framing of the blast radius puts the camera.
    const CameraPose landed = view->cameraPose();
    view->frameBlastRadius();
    const CameraPose framed = view->cameraPose();
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_NEAR(landed.position[k], framed.position[k], 1e-6 * std::abs(framed.position[k]) + 1e-6);
        EXPECT_NEAR(landed.focal[k], framed.focal[k], 1e-6 * std::abs(framed.focal[k]) + 1e-6);
    }
}

TEST(Presentation, ViewPresentIsF5AndGoesFullScreenAndEscReturns) {
    test::WindowOnRun w(test::tinyRun());
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QAction* present = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == "&Present") present = a;
    ASSERT_NE(present, nullptr);
    EXPECT_EQ(present->shortcut(), QKeySequence(Qt::Key_F5));
    present->trigger();  // as F5 or View > Present does
    auto* presentation = window.findChild<PresentationWindow*>();
    ASSERT_NE(presentation, nullptr) << "View > Present opens the presentation";
    EXPECT_TRUE(QTest::qWaitFor([&] { return presentation->isFullScreen(); }, 30000));
    EXPECT_EQ(presentation->slideCount(), 7);  // title, the 5 worst incidents, closing
    QPointer<PresentationWindow> alive(presentation);
    QTest::keyClick(presentation, Qt::Key_Escape);
    EXPECT_TRUE(QTest::qWaitFor([&] { return alive.isNull(); }, 30000));
    EXPECT_TRUE(window.isVisible());
}

}  // namespace
}  // namespace faultline
