// What a reviewer's hands do by the way: a mouse wheel passing over the review pane changes
// nothing (the confirmed cause above all) and saves nothing; the window's keys (Space, F...)
// answer from every panel, right after start and after a click in the incident list.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "analysis/incidents.h"
#include "model/incident_notes.h"
#include "model/run_file.h"
#include "views/fabric/fabric_view.h"
#include "views/incident_view.h"
#include "views/replay_panel.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDial>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTextEdit>
#include <QTest>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace faultline {
namespace {

// One notch of the wheel, down, over the middle of the widget.
void wheelOver(QWidget* widget, int notches = 1) {
    for (int i = 0; i < notches; ++i) {
        const QPointF at = QRectF(widget->rect()).center();
        QWheelEvent wheel(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget, &wheel);
    }
}

// A value of any of the widgets a wheel could change.
double valueOf(QWidget* widget) {
    if (auto* c = qobject_cast<QComboBox*>(widget)) return c->currentIndex();
    if (auto* s = qobject_cast<QSpinBox*>(widget)) return s->value();
    if (auto* d = qobject_cast<QDoubleSpinBox*>(widget)) return d->value();
    if (auto* s = qobject_cast<QAbstractSlider*>(widget)) return s->value();
    if (auto* a = qobject_cast<QAbstractSpinBox*>(widget)) return a->text().size();
    return 0;
}

// The main window on the tiny run, active, with an incident selected in the review pane.
struct ReviewOpen {
    ReviewOpen() {
        test::guiApp();
        writeRunFile(test::tinyRun(), path);
        window.resize(1400, 900);
        window.show();
        if (!test::openAndWait(window, path)) return;
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window)) return;
        window.findChild<QDockWidget*>("incidentsDock")->raise();
        incidents = window.findChild<IncidentView*>("incidentView");
        const auto all = buildIncidents(test::tinyRun());
        ready = incidents && !all.empty() && incidents->selectIncident(all.front().id);
    }
    bool appReady = (test::guiApp(), true);  // before any widget
    test::ScratchDir dir;
    std::string path = dir.file("tiny.faultline");
    MainWindow window;
    IncidentView* incidents = nullptr;
    bool ready = false;
};

TEST(PassingWheel, OverTheUnfocusedConfirmedCauseChangesAndSavesNothing) {
    ReviewOpen r;
    ASSERT_TRUE(r.ready);
    auto* confirmed = r.incidents->findChild<QComboBox*>("confirmedCause");
    ASSERT_NE(confirmed, nullptr);
    ASSERT_TRUE(confirmed->isVisible() && confirmed->isEnabled());
    r.incidents->findChild<QTableView*>("incidentTable")->setFocus();
    ASSERT_FALSE(confirmed->hasFocus());
    EXPECT_NE(confirmed->focusPolicy(), Qt::WheelFocus) << "a wheel over it would give it the focus first";

    const int before = confirmed->currentIndex();
    wheelOver(confirmed, 5);
    EXPECT_EQ(confirmed->currentIndex(), before) << "the wheel stepped through the causes";
    r.incidents->saveNow();
    for (const auto& [time, note] : readIncidentNotes(r.path)) EXPECT_FALSE(note.confirmedCause.has_value()) << "a cause was saved";

    // Focused (a click or Tab), the wheel chooses as it always did.
    confirmed->setFocus(Qt::TabFocusReason);
    ASSERT_TRUE(confirmed->hasFocus());
    wheelOver(confirmed);
    EXPECT_NE(confirmed->currentIndex(), before);
}

TEST(PassingWheel, NoComboSpinBoxOrSliderAnywhereTakesAWheelWithoutTheFocus) {
    ReviewOpen r;
    ASSERT_TRUE(r.ready);
    // Every such widget of the main window, and ones made anywhere else in the app afterwards.
    QWidget elsewhere;
    auto* column = new QWidget(&elsewhere);
    column->setGeometry(0, 0, 300, 200);
    auto* spin = new QSpinBox(column);
    spin->setRange(0, 100);
    spin->setValue(50);
    auto* real = new QDoubleSpinBox(column);
    real->setValue(5);
    auto* slider = new QSlider(Qt::Horizontal, column);
    slider->setRange(0, 100);
    slider->setValue(50);
    auto* dial = new QDial(column);
    dial->setRange(0, 100);
    dial->setValue(50);
    auto* combo = new QComboBox(column);
    combo->addItems({"one", "two", "three"});
    elsewhere.show();

    QList<QWidget*> widgets;
    for (QWidget* top : {static_cast<QWidget*>(&r.window), &elsewhere})
        for (QWidget* w : top->findChildren<QWidget*>())
            if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QSlider*>(w) || qobject_cast<QDial*>(w))
                widgets << w;
    ASSERT_GE(widgets.size(), 7) << "the confirmed cause, the replay speed and the five above at least";
    r.window.findChild<QTableView*>("incidentTable")->setFocus();
    for (QWidget* w : widgets) {
        const std::string name = w->metaObject()->className() + std::string(" ") + w->objectName().toStdString();
        EXPECT_NE(w->focusPolicy(), Qt::WheelFocus) << name;
        const double before = valueOf(w);
        wheelOver(w, 3);
        EXPECT_EQ(valueOf(w), before) << name << " changed under a passing wheel";
    }
}

// Records the shortcut events a shortcut receives and stops them there.
class ShortcutCounter : public QObject {
public:
    std::map<QObject*, int> caught;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Shortcut) return false;
        ++caught[watched];
        return true;
    }
};

// The keys the README and Help > Keyboard Shortcuts promise everywhere in the window.
const QList<QKeySequence> kWindowKeys{Qt::Key_Space, Qt::Key_F, Qt::Key_Home, Qt::Key_T, Qt::Key_Z, Qt::Key_N, Qt::Key_P,
                                      Qt::Key_Period, Qt::Key_Comma, Qt::Key_BracketLeft, Qt::Key_BracketRight};

TEST(WindowKeys, EveryWindowKeyAnswersFromEveryDockablePanel) {
    ReviewOpen r;
    ASSERT_TRUE(r.ready);
    // The replay's window keys and N/P, and every menu action's shortcut (Ctrl+O, F5, Ctrl+/...).
    struct Key {
        QObject* target;
        QKeySequence sequence;
    };
    std::vector<Key> keys;
    for (QShortcut* s : r.window.findChildren<QShortcut*>())
        if (kWindowKeys.contains(s->key())) keys.push_back({s, s->key()});
    for (const QKeySequence& k : kWindowKeys)
        ASSERT_TRUE(std::any_of(keys.begin(), keys.end(), [&](const Key& key) { return key.sequence == k; })) << k.toString().toStdString() << " has no shortcut";
    for (QAction* a : r.window.findChildren<QAction*>())
        if (a->shortcutContext() != Qt::WidgetShortcut && a->isEnabled())
            for (const QKeySequence& k : a->shortcuts()) keys.push_back({a, k});
    ASSERT_GE(keys.size(), kWindowKeys.size() + 5);
    ShortcutCounter catcher;
    for (const Key& k : keys) k.target->installEventFilter(&catcher);
    const QList<QDockWidget*> docks = r.window.findChildren<QDockWidget*>();
    ASSERT_GE(docks.size(), 6);
    for (QDockWidget* dock : docks) {
        dock->raise();
        QApplication::processEvents();
        // The panel's first widget that takes the focus and types no text.
        QWidget* focus = nullptr;
        for (QWidget* w : dock->widget()->findChildren<QWidget*>())
            if (!focus && w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && !qobject_cast<QLineEdit*>(w) &&
                !qobject_cast<QAbstractSpinBox*>(w) && !qobject_cast<QPlainTextEdit*>(w) && !qobject_cast<QTextEdit*>(w))
                focus = w;
        if (!focus) focus = dock->widget();
        focus->setFocus(Qt::TabFocusReason);
        ASSERT_TRUE(QTest::qWaitFor([&] { return focus->hasFocus() || focus->isAncestorOf(QApplication::focusWidget()); }, 30'000))
            << dock->objectName().toStdString();
        for (const Key& k : keys) {
            const int before = catcher.caught[k.target];
            QTest::keyClick(r.window.windowHandle(), k.sequence[0].key(), k.sequence[0].keyboardModifiers());
            EXPECT_EQ(catcher.caught[k.target], before + 1)
                << k.sequence.toString().toStdString() << " does not answer with the focus in " << dock->objectName().toStdString() << " ("
                << QApplication::focusWidget()->metaObject()->className() << ")";
        }
    }
}

TEST(WindowKeys, SpaceAndFWorkRightAfterStartAndAfterAClickInTheIncidentList) {
    ReviewOpen r;
    ASSERT_TRUE(r.ready);
    ReplayPanel* replay = r.window.replayPanel();
    // Right after start, the focus where the window put it.
    QTest::keyClick(r.window.windowHandle(), Qt::Key_Space);
    EXPECT_TRUE(replay->isPlaying()) << "Space plays right after start";
    QTest::keyClick(r.window.windowHandle(), Qt::Key_Space);
    EXPECT_FALSE(replay->isPlaying());

    // A click on an incident: the list has the focus; F frames the cluster, the list stays.
    auto* table = r.window.findChild<QTableView*>("incidentTable");
    ASSERT_GE(table->model()->rowCount(), 1);
    const QModelIndex last = table->model()->index(table->model()->rowCount() - 1, 0);
    table->scrollTo(last);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(last).center());
    ASSERT_TRUE(table->hasFocus()) << (QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "no focus")
                                   << " " << (QApplication::focusWidget() ? QApplication::focusWidget()->objectName().toStdString() : "");
    FabricView* view = replay->fabricView();
    view->zoomTo(view->selected());  // the camera away from the whole cluster
    view->setCameraPose(view->cameraPose());
    ASSERT_FALSE(view->keepsFramed());
    const QModelIndex current = table->currentIndex();
    QTest::keyClick(r.window.windowHandle(), Qt::Key_F);
    EXPECT_TRUE(view->keepsFramed()) << "F framed the whole cluster";
    EXPECT_EQ(table->currentIndex(), current) << "the list's type-ahead took F";
    QTest::keyClick(r.window.windowHandle(), Qt::Key_Space);
    EXPECT_TRUE(replay->isPlaying()) << "Space plays after a click on an incident";
    replay->pause();

    // A focused button keeps Space: it presses it, the replay stays paused.
    auto* reset = r.window.findChild<QAbstractButton*>("causeFilter");
    ASSERT_NE(reset, nullptr);
    reset->show();
    reset->setFocus(Qt::TabFocusReason);
    ASSERT_TRUE(reset->hasFocus());
    QSignalSpy pressed(reset, &QAbstractButton::clicked);
    QTest::keyClick(r.window.windowHandle(), Qt::Key_Space);
    EXPECT_TRUE(pressed.count() == 1 || pressed.wait(10'000)) << "Space did not press the focused button";
    EXPECT_FALSE(replay->isPlaying());

        // A text field still types them: a note reads "F " and the replay stays paused.
    auto* notes = r.incidents->findChild<QPlainTextEdit*>("incidentNotes");
    notes->setFocus(Qt::TabFocusReason);
    ASSERT_TRUE(notes->hasFocus());
    QTest::keyClicks(notes, "F ");
    EXPECT_TRUE(notes->toPlainText().endsWith("F ")) << notes->toPlainText().toStdString();
    EXPECT_FALSE(replay->isPlaying());
}

}  // namespace
}  // namespace faultline
