// Every window-level shortcut answers whichever child has the focus, the 3D view's native
// window included: the menus' keys, N and P, the replay's keys.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "model/run_file.h"
#include "views/fabric/fabric_view.h"
#include "views/replay_panel.h"
#include "widgets/vtk_render_widget.h"

#include <QAction>
#include <QApplication>
#include <QShortcut>
#include <QSignalSpy>
#include <QTest>
#include <QWindow>

#include <gtest/gtest.h>

#include <map>

namespace faultline {
namespace {

using test::ScratchDir;

// Records the shortcut events an action or shortcut receives and stops them there, so a key
// that would open a dialog (Open Run, Quit) is seen without running it.
class ShortcutCatcher : public QObject {
public:
    std::map<QObject*, int> caught;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Shortcut) return false;
        ++caught[watched];
        return true;
    }
};

struct Key {
    QObject* target;
    QKeySequence sequence;
    QString name;
};

// Each key of the window: the menus' actions and the window's and panels' shortcuts that
// answer wherever the focus is in the window.
std::vector<Key> windowKeys(MainWindow& window, const QWidget& focus) {
    std::vector<Key> keys;
    for (QAction* a : window.findChildren<QAction*>())
        for (const QKeySequence& k : a->shortcuts())
            if (a->shortcutContext() != Qt::WidgetShortcut) keys.push_back({a, k, a->text()});
    for (QShortcut* s : window.findChildren<QShortcut*>())
        if (s->context() == Qt::WindowShortcut || s->context() == Qt::ApplicationShortcut ||
            (s->context() == Qt::WidgetWithChildrenShortcut && qobject_cast<QWidget*>(s->parent()) &&
             qobject_cast<QWidget*>(s->parent())->isAncestorOf(&focus)))
            keys.push_back({s, s->key(), s->key().toString()});
    return keys;
}

void press(QWindow* window, const QKeySequence& sequence) {
    const QKeyCombination k = sequence[0];
    QTest::keyClick(window, k.key(), k.keyboardModifiers());
}

TEST(WindowShortcuts, EveryMenuShortcutWorksWithTheFocusInThe3DView) {
    test::WindowOnRun w(test::tinyRun(), {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));

    VtkRenderWidget* view = window.replayPanel()->fabricView()->renderWidget();
    QWindow* surface = view->surfaceWindow();
    ASSERT_NE(surface, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(surface));
    view->setFocus(Qt::TabFocusReason);
    ASSERT_EQ(QApplication::focusWidget(), view);

    ShortcutCatcher catcher;
    const std::vector<Key> keys = windowKeys(window, *view);
    ASSERT_GE(keys.size(), 20u);
    for (const Key& k : keys) k.target->installEventFilter(&catcher);
    for (const Key& k : keys) {
        // As the window system delivers it: to the native window of the 3D view.
        const int before = catcher.caught[k.target];
        press(surface, k.sequence);
        EXPECT_EQ(catcher.caught[k.target], before + 1)
            << k.name.toStdString() << " (" << k.sequence.toString().toStdString() << ") does not answer in the 3D view";
        // And typed with the widget itself focused.
        press(window.windowHandle(), k.sequence);
        EXPECT_EQ(catcher.caught[k.target], before + 2)
            << k.name.toStdString() << " (" << k.sequence.toString().toStdString() << ") does not answer with the 3D view focused";
        EXPECT_EQ(QApplication::focusWidget(), view);
    }
    // The 3D view's own keys still reach it: the up arrow tilts the camera.
    QSignalSpy moved(view, &VtkRenderWidget::cameraMovedByUser);
    QTest::keyClick(surface, Qt::Key_Up);
    EXPECT_EQ(moved.count(), 1);
}

// Without a window manager nothing activates a window that is clicked: a click in the 3D view
// does, or no shortcut would answer.
TEST(WindowShortcuts, AClickInThe3DViewActivatesItsWindow) {
    test::WindowOnRun w(test::tinyRun(), {1200, 800});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    QWidget other;
    other.resize(200, 100);
    other.show();
    other.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&other));
    VtkRenderWidget* view = window.replayPanel()->fabricView()->renderWidget();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(view->surfaceWindow()));
    QTest::mouseClick(view->surfaceWindow(), Qt::LeftButton, {}, QPoint(view->width() / 2, view->height() / 2));
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.isActiveWindow(); }, 30'000));
    EXPECT_EQ(QApplication::focusWidget(), view);
}

}  // namespace
}  // namespace faultline
