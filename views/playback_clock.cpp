#include "views/playback_clock.h"

#include <QTimer>

namespace faultline {

namespace {
constexpr int kTickMs = 16;  // about sixty frames a second
}  // namespace

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent), m_timer(new QTimer(this)) {
    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        const qint64 now = m_clock.elapsed();
        const double seconds = static_cast<double>(now - m_lastTickMs) / 1000.0;
        m_lastTickMs = now;
        emit ticked(seconds);
    });
}

void PlaybackClock::start() {
    m_clock.start();
    m_lastTickMs = 0;
    m_timer->start();
}

void PlaybackClock::stop() { m_timer->stop(); }

bool PlaybackClock::isRunning() const { return m_timer->isActive(); }

}  // namespace faultline
