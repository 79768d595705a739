#include "first_window.h"

#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QTimer>

#include <algorithm>

namespace faultline {

namespace {

constexpr const char* kDockSharer = "firstWindowDockSharer";
constexpr int kNarrowWindow = 1300;  // narrower than this, no docks beside the 3D view


// Docks can be sized only once the window is laid out: at its first showing, then gone.
class DockSharer : public QObject {
public:
    explicit DockSharer(QMainWindow& window) : QObject(&window), m_window(window) {
        setObjectName(kDockSharer);
        window.installEventFilter(this);
    }
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Show) {
            QTimer::singleShot(0, &m_window, [window = &m_window] { shareOutDocks(*window); });
            deleteLater();
        }
        return false;
    }

private:
    QMainWindow& m_window;
};

}  // namespace

// The docks take what they need to be read and no more: about a third of the width on the
// right (the summary's tiles whole), about a quarter of the height below (four incidents
// listed at 1280x720); the rest is the 3D view.
void shareOutDocks(QMainWindow& window) {
    const int width = window.width(), height = window.height();
    if (auto* right = window.findChild<QDockWidget*>("summaryDock"))
        window.resizeDocks({right}, {std::clamp(width * 34 / 100, 440, 600)}, Qt::Horizontal);
    if (auto* bottom = window.findChild<QDockWidget*>("incidentsDock"))
        window.resizeDocks({bottom}, {std::clamp(height * 26 / 100, 180, 260)}, Qt::Vertical);
}

void keepDocksSmallerThanThe3DView(QMainWindow& window) {
    const int widest = std::max(300, window.width() * 34 / 100), tallest = std::max(180, window.height() * 26 / 100);
    QList<QDockWidget*> wide, tall;
    QList<int> widths, heights;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || dock->isFloating()) continue;
        const Qt::DockWidgetArea area = window.dockWidgetArea(dock);
        const bool beside = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
        if (beside && dock->width() > widest) wide << dock, widths << widest;
        if (!beside && dock->height() > tallest) tall << dock, heights << tallest;
    }
    if (!wide.isEmpty()) window.resizeDocks(wide, widths, Qt::Horizontal);
    if (!tall.isEmpty()) window.resizeDocks(tall, heights, Qt::Vertical);
}

QRect firstWindowGeometry(const QRect& available) {
    const QSize size(static_cast<int>(available.width() * kFirstWindowShare), static_cast<int>(available.height() * kFirstWindowShare));
    QRect frame(QPoint(), size);
    frame.moveCenter(available.center());
    return frame;
}

void placeFirstWindow(QMainWindow& window) {
    const QScreen* screen = window.screen() ? window.screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
    window.setGeometry(firstWindowGeometry(available));
    // On a small screen a column of docks beside the 3D view would leave it a strip: every
    // panel goes below it instead, as tabs.
    auto* incidents = window.findChild<QDockWidget*>("incidentsDock");
    if (window.width() < kNarrowWindow && incidents) {
        for (const char* name : {"summaryDock", "chartsDock"})
            if (auto* dock = window.findChild<QDockWidget*>(name)) window.tabifyDockWidget(incidents, dock);
        incidents->raise();
    }
    shareOutDocks(window);  // a first guess, made right when shown
    new DockSharer(window);
}

void keepRestoredDocks(QMainWindow& window) {
    delete window.findChild<QObject*>(kDockSharer, Qt::FindDirectChildrenOnly);
}

}  // namespace faultline
