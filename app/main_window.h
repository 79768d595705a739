#pragma once
#include "remote/prometheus_pull.h"
#include "views/run_loader.h"

#include <QMainWindow>

#include <array>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;

namespace faultline {

class ReplayPanel;
class ChartsView;
class ImportController;
class JobFollower;
class IncidentView;
class ReviewWatcher;
class JobsView;
class RepeatOffendersView;
class SummaryView;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void openRun(const QString& path);
    void openSampleRun();
    // File > Follow Job Folder: a running job's folder opened as a live run (app/job_follower.h),
    // shown again as it grows without moving the camera, the instant or the selection; with
    // `pull`, the metrics pulled from a Prometheus server up to now at each look too.
    void followFolder(const QString& folder, std::optional<PrometheusPullOptions> pull = std::nullopt);
    void stopFollowing();
    const JobFollower* follower() const { return m_follower; }
    // The panels' arrangement, sizes and theme as the user last left them.
    void restoreLayout();
    // View > Reset Layout: every dock back where it first was, the legend unfolded.
    void resetLayout();
    const LoadedRun* currentRun() const { return m_run.get(); }
    std::shared_ptr<const LoadedRun> currentRunShared() const { return m_run; }
    bool isLoading() const { return m_loader->busy(); }
    ReplayPanel* replayPanel() const { return m_replay; }

signals:
    void runShown();
    void runFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // The constructor's parts, in the order it calls them.
    void createPages();
    void createDocks();
    void connectPanels();
    ImportController* createDropTargets();
    void createMenus(ImportController* importer);
    void createIncidentShortcuts();
    void createBusyIndicator();
    // A checkable action whose state is remembered in QSettings under `key`; `apply` puts
    // each state into effect, from the menu and again from restoreLayout().
    QAction* addRememberedToggle(QMenu* menu, const QString& text, const char* name, const char* key, std::function<void(bool)> apply);

    void chooseAndOpen();
    void chooseAndFollow();
    void chooseAndFollowWithPrometheus();
    void showFollowStatus();
    void showFollowedUpdate(const QString& runPath, const QStringList& newIncidents);
    void chooseAndCompare();
    template <typename Window, typename Make>
    void showHelpWindow(const char* name, Make make);
    void showRun(std::shared_ptr<const LoadedRun> run);
    void showError(const QString& message);
    void showMessage(const QString& message);
    void saveReviewIntoRunFile();
    // The open run's review was changed by another window or reviewer: its notes are shown
    // again as saved now (a pending edit here saved first, merged), the selection kept.
    void reloadReview();
    void presentWorstIncidents();
    void openWhatIf();
    // The hang window of the open run (one at a time), showing `rank`'s part when given.
    void showHang(std::optional<std::int32_t> rank = std::nullopt);

    struct Docks {
        QDockWidget* summary = nullptr;
        QDockWidget* charts = nullptr;
        QDockWidget* incidents = nullptr;
        QDockWidget* timeline = nullptr;
        QDockWidget* jobs = nullptr;
        QDockWidget* offenders = nullptr;
        std::array<QDockWidget*, 6> all() const { return {summary, charts, incidents, timeline, jobs, offenders}; }
    };
    struct RememberedToggle {
        const char* key;
        std::function<void(bool)> apply;
    };

    RunLoader* m_loader;
    QStackedWidget* m_pages;
    QLabel* m_placeholder;
    SummaryView* m_summary;
    ReplayPanel* m_replay;
    IncidentView* m_incidents = nullptr;
    ReviewWatcher* m_reviewWatcher = nullptr;
    ChartsView* m_charts = nullptr;
    TimelineView* m_timeline = nullptr;
    JobsView* m_jobs = nullptr;
    RepeatOffendersView* m_offenders = nullptr;
    QProgressBar* m_busy = nullptr;
    JobFollower* m_follower = nullptr;
    QLabel* m_followStatus = nullptr;
    QString m_pullProblem;  // why the followed pull's last look got no answer; empty when it did
    // The next run shown is the followed run again: the view stays as the user left it.
    bool m_keepViewOnNextRun = false;
    bool m_followShown = false;  // the followed run was shown once since following began
    QStringList m_newIncidents;  // told by the status line once the run that has them is shown
    Docks m_docks;
    std::vector<RememberedToggle> m_rememberedToggles;
    std::shared_ptr<const LoadedRun> m_run;
    QByteArray m_defaultDocks;
};

}  // namespace faultline
