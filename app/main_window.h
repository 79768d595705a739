#pragma once
#include "views/run_loader.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QProgressBar;
class QStackedWidget;

namespace faultline {

class ReplayPanel;
class ChartsView;
class IncidentView;
class JobsView;
class SummaryView;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void openRun(const QString& path);
    void openSampleRun();
    // The panels' arrangement, sizes and theme as the user last left them.
    void restoreLayout();
    // The GPU state colours everywhere: the standard set or the colour-blind-safe one.
    void showStatePalette(bool colourBlindSafe);
    const LoadedRun* currentRun() const { return m_run.get(); }
    std::shared_ptr<const LoadedRun> currentRunShared() const { return m_run; }
    bool isLoading() const { return m_loader->busy(); }
    ReplayPanel* replayPanel() const { return m_replay; }

signals:
    void runShown();
    void runFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void chooseAndOpen();
    void chooseAndCompare();
    template <typename Window, typename Make>
    void showHelpWindow(const char* name, Make make);
    void showRun(std::shared_ptr<const LoadedRun> run);
    void showError(const QString& message);
    void showMessage(const QString& message);

    RunLoader* m_loader;
    QStackedWidget* m_pages;
    QLabel* m_placeholder;
    SummaryView* m_summary;
    ReplayPanel* m_replay;
    IncidentView* m_incidents = nullptr;
    ChartsView* m_charts = nullptr;
    TimelineView* m_timeline = nullptr;
    JobsView* m_jobs = nullptr;
    QProgressBar* m_busy = nullptr;
    std::shared_ptr<const LoadedRun> m_run;
};

}  // namespace faultline
