#pragma once
// A passing mouse wheel changes no value: over a combo box, spin box, slider or dial that does not
// have the keyboard focus the wheel scrolls what holds it instead (as in Qt Creator and KDE's
// apps), and the wheel never gives such a widget the focus. One filter for the whole
// application, installed by each top-level window's constructor (installed once).
class QObject;

namespace faultline {

void guardWheelsAppWide();
// Whether the wheel would change this widget's value: never unless it has the focus.
bool wheelChangesValue(const QObject* widget);

}  // namespace faultline
