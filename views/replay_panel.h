#pragma once
// The run replayed on its cluster: a status line naming the instant, the fabric view (its
// legend drawn in it), the inspector and the replay controls. Owns the replay clock: play
// advances the instant by the chosen speed against real time; failures crossed while
// playing flash.
#include "model/run.h"
#include "views/replay_controls.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace faultline {

class FabricView;
class InspectorView;
class PlaybackClock;

class ReplayPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReplayPanel(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run);
    void setTime(Nanos t);
    Nanos time() const;
    void play();
    void pause();
    bool isPlaying() const;
    void jump(ReplayControls::Jump jump);
    // The instants N and P step through: the incidents as the incident list has them (each
    // one's begin). Empty: the downtimes the replay index knows.
    void setIncidentTimes(std::vector<Nanos> times);

    // A part outlined in the 3D view, flown to, and shown in the inspector.
    void showPart(const ComponentRef& part);

    FabricView* fabricView() const { return m_view; }
    ReplayControls* controls() const { return m_controls; }
    InspectorView* inspector() const { return m_inspector; }
    QString statusText() const;

signals:
    void timeChanged(faultline::Nanos t);
    // N, P or their buttons moved the replay to the incident that begins at `t`.
    void incidentReached(faultline::Nanos t);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void tick(double seconds);
    void showTime();
    void showStatus();
    void followPace();
    void addShortcuts();

    QLabel* m_status;
    FabricView* m_view;
    InspectorView* m_inspector;
    ReplayControls* m_controls;
    PlaybackClock* m_clock;
    qint64 m_flashUntilMs = -1;
    std::vector<std::int32_t> m_flashGpus;
    std::vector<Nanos> m_incidentTimes;  // sorted
};

}  // namespace faultline
