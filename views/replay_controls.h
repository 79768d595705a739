#pragma once
// The row under the fabric view: the time scrubber, play/pause, steps back and forward (a
// training step, an event, an incident) and the replay speed. Emits what the user asked for;
// the replay panel decides what it means for the run.
#include "model/time.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QToolButton;

namespace faultline {

class ReplayIndex;
class TimeScrubber;

class ReplayControls : public QWidget {
    Q_OBJECT
public:
    enum class Jump { PreviousIncident, PreviousEvent, PreviousStep, NextStep, NextEvent, NextIncident };

    explicit ReplayControls(QWidget* parent = nullptr);

    void setDuration(std::int64_t duration, std::vector<std::int64_t> incidents);
    void setTime(std::int64_t t, const QString& text);
    void setPlaying(bool playing);
    // Replay seconds per real second.
    double speed() const;
    TimeScrubber* scrubber() const { return m_scrubber; }

signals:
    void scrubbed(std::int64_t t);
    void playToggled();
    void jump(faultline::ReplayControls::Jump jump);
    void speedChanged(double speed);

protected:
    void changeEvent(QEvent* event) override;

private:
    // Icons in the palette's button text colour, drawn again when the theme changes.
    void refreshIcons();
    QToolButton* button(const QString& text, const QString& tip, const char* name);

    TimeScrubber* m_scrubber;
    QToolButton* m_play;
    QComboBox* m_speed;
    QLabel* m_time;
    bool m_playing = false;
};

// Where a jump from `t` lands in the run `index` replays, if there is such an instant.
std::optional<Nanos> jumpTarget(const ReplayIndex& index, ReplayControls::Jump jump, Nanos t);

}  // namespace faultline
