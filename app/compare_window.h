#pragma once
// Two runs side by side: a fabric view for each (side by side or stacked), one clock with one
// set of replay controls driving both through an alignment (by time since start, by training
// step, by incident), cameras linked unless unlinked, a GPU picked in one shown in the other,
// the KPI diff and the overlaid charts below.
#include "analysis/run_alignment.h"
#include "analysis/run_comparison.h"

#include <QMainWindow>
#include <QRect>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSplitter;

namespace faultline {

class ComparisonCharts;
class FabricView;
class KpiDiffView;
class LinkedCameras;
class PlaybackClock;
class ReplayControls;

// Two runs read and compared, off the GUI thread.
struct LoadedComparison {
    QString pathA, pathB;
    std::shared_ptr<const Run> a, b;
    RunComparison comparison;
};
// Reads both run files and compares them; throws Error naming the file that failed.
std::shared_ptr<const LoadedComparison> loadComparison(const QString& pathA, const QString& pathB);

// Where the comparison opens on a screen of this free area: at the 1600x1000 it was laid out
// for where there is room, else 92% of the area; centred, never partly off the screen.
QRect comparisonWindowGeometry(const QRect& available);

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Loads both runs in the background; comparisonShown or comparisonFailed follows.
    void open(const QString& pathA, const QString& pathB);
    void showComparison(std::shared_ptr<const LoadedComparison> loaded);
    const LoadedComparison* comparison() const { return m_loaded.get(); }

    // The clock: A's time (or, aligned by time, the time since each run's start).
    void setClock(Nanos clock);
    Nanos clock() const { return m_clock; }
    void play();
    void pause();
    bool isPlaying() const;

    void alignByTime();
    void alignBySteps();
    // Aligns the runs on A's downtime `a` and B's downtime `b` (indexes into Run::downtimes)
    // and moves the clock there.
    void alignByIncident(int a, int b);
    const RunAlignment* alignment() const { return m_alignment.get(); }

    // The comparison's report (PDF or HTML by extension), as `faultline --report OUT --compare
    // A B` writes it; throws Error when it cannot be written.
    void exportReport(const QString& path);

    void setCamerasLinked(bool linked);
    bool camerasLinked() const;
    void setStacked(bool stacked);

    FabricView* viewA() const { return m_viewA; }
    FabricView* viewB() const { return m_viewB; }
    QString statusA() const;
    QString statusB() const;

signals:
    void comparisonShown();
    void comparisonFailed(const QString& message);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitFiguresTable();
    int figuresTableWidth() const;
    // Beside the charts where both fit, else a tab of the charts' own ("Figures").
    bool placeFiguresTable();
    // On a short window (a 1280x720 or 1366x768 screen) the two views become the charts' first
    // tab, "3D Views", and take the whole height below the bar; on a tall one they sit over
    // the figures and charts. True when that changed.
    bool placeViews();
    void shareMainSplit();
    // The constructor's parts, in the order it calls them.
    QHBoxLayout* createBar();
    QWidget* createLayout(QHBoxLayout* bar);
    void connectControls();
    QWidget* makePane(FabricView* view, QLabel* status, const QString& which);
    void showClock();
    void updateScrubberRange();
    void showMode(int mode);  // the combo box says the alignment in use  // when the alignment changes the clock's range
    void tick(double seconds);
    void mirrorPick(FabricView* to, const ComponentRef& part);
    void fillIncidentLists();

    std::shared_ptr<const LoadedComparison> m_loaded;
    std::unique_ptr<RunAlignment> m_alignment;
    FabricView* m_viewA;
    FabricView* m_viewB;
    QLabel* m_statusA;
    QLabel* m_statusB;
    QLabel* m_verdict;  // which run lost fewer GPU-hours, and why: the first thing a reviewer reads
    QSplitter* m_views;
    ReplayControls* m_controls;
    KpiDiffView* m_kpis;
    ComparisonCharts* m_charts;
    bool m_figuresInTab = false;
    QSplitter* m_bottom = nullptr;  // the figures' table beside the charts
    QSplitter* m_main = nullptr;  // the views over the figures and charts
    QWidget* m_viewsPage = nullptr;  // the two views and the replay controls under them
    bool m_viewsInTab = false;
    bool m_mainShared = false;  // the views' share set once, when first shown at its size
    QComboBox* m_alignMode;
    QComboBox* m_incidentA;
    QComboBox* m_incidentB;
    QCheckBox* m_link;
    QCheckBox* m_stack;
    PlaybackClock* m_clockTicks;  // while playing
    LinkedCameras* m_cameras;
    Nanos m_clock = 0;
    quint64 m_request = 0;
};

// Opens A beside B in a new window that deletes itself when closed.
CompareWindow* openComparison(const QString& pathA, const QString& pathB, QWidget* parent = nullptr);


}  // namespace faultline
