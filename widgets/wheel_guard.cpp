#include "widgets/wheel_guard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDial>
#include <QEvent>
#include <QSlider>

namespace faultline {

namespace {

bool holdsAValue(const QObject* object) {
    // Not a scroll bar: scrolling is what a wheel is for (a scroll area hands it the viewport's).
    return qobject_cast<const QComboBox*>(object) || qobject_cast<const QAbstractSpinBox*>(object) ||
           qobject_cast<const QSlider*>(object) || qobject_cast<const QDial*>(object);
}

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Polish && holdsAValue(watched)) {
            // Qt gives a combo box the focus on a wheel over it, before any filter sees the
            // wheel: Tab and a click focus it, a wheel does not.
            auto* widget = static_cast<QWidget*>(watched);
            if (widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
        }
        if (event->type() == QEvent::Wheel && holdsAValue(watched) && !wheelChangesValue(watched)) {
            event->ignore();  // on to the scroll area that holds it
            return true;
        }
        return false;
    }
};

}  // namespace

bool wheelChangesValue(const QObject* widget) {
    const auto* w = qobject_cast<const QWidget*>(widget);
    return w && w->hasFocus();
}

void guardWheelsAppWide() {
    QCoreApplication* app = QCoreApplication::instance();
    constexpr const char* kName = "faultlineWheelGuard";
    if (!app || app->findChild<QObject*>(kName, Qt::FindDirectChildrenOnly)) return;
    auto* guard = new WheelGuard(app);
    guard->setObjectName(kName);
    app->installEventFilter(guard);
}

}  // namespace faultline
