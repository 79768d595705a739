#pragma once
// Qt's animations (the camera's flights) on a clock the test moves: no wall-clock time has to
// pass, so a flight is "part of the way" or "over" however busy the machine is.
#include <QAnimationDriver>
#include <QCoreApplication>

namespace faultline::test {

class ManualAnimationClock : public QAnimationDriver {
public:
    ManualAnimationClock() { install(); }
    ~ManualAnimationClock() override { uninstall(); }
    ManualAnimationClock(const ManualAnimationClock&) = delete;
    ManualAnimationClock& operator=(const ManualAnimationClock&) = delete;

    qint64 elapsed() const override { return m_ms; }
    // Moves the clock on by `ms`, runs the animations at the new time and lets what they
    // changed be painted.
    void advanceBy(qint64 ms) {
        m_ms += ms;
        advance();
        QCoreApplication::processEvents();
    }

private:
    qint64 m_ms = 0;
};

}  // namespace faultline::test
