#pragma once
// The hang of a run imported from NCCL Flight Recorder dumps, in a window of its own: what
// happened in one sentence, a choice of origin when the job hung in several places at once,
// and the rank lanes with their flows (views/hang_view.h). Opened from View > Hang, from a
// hang incident's review pane and from the inspector of a GPU that took part. It has the main
// window's File and Help menus, closes on Esc and opens wholly on the screen.
#include "views/run_loader.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace faultline {

class HangView;

class HangWindow : public QWidget {
    Q_OBJECT
public:
    explicit HangWindow(std::shared_ptr<const LoadedRun> run, QWidget* parent = nullptr);
    HangView* view() const { return m_view; }
    // Shows the origin that `rank` took part in (as culprit or waiting), if any.
    void showRank(std::int32_t rank);

private:
    void showOrigin(int origin);
    void placeOnScreen();

    std::shared_ptr<const LoadedRun> m_run;
    QLabel* m_headline;
    QComboBox* m_origins;
    HangView* m_view;
};

}  // namespace faultline
