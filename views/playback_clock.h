#pragma once
// The wall clock behind Play: ticks about sixty times a second while running and says how
// much real time passed since the last tick, which the replay turns into run time by its
// speed. One for the main replay and the comparison, so both play alike.
#include <QElapsedTimer>
#include <QObject>

class QTimer;

namespace faultline {

class PlaybackClock : public QObject {
    Q_OBJECT
public:
    explicit PlaybackClock(QObject* parent = nullptr);

    void start();
    void stop();
    bool isRunning() const;
    // Milliseconds of real time since start(): for effects timed in real time (flashes).
    qint64 elapsedMs() const { return m_clock.elapsed(); }

signals:
    // Real seconds since the previous tick (or since start()).
    void ticked(double seconds);

private:
    QTimer* m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastTickMs = 0;
};

}  // namespace faultline
