#pragma once
// File > Import and drag-and-drop: asks what to import and where to write the run, runs the
// import off the GUI thread with a progress dialog and Cancel, and says when the run file is
// ready. One import at a time: a new one cancels the one in progress, whose result is dropped.
#include "importers/events/import_context.h"
#include "importers/events/import_report.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QWidget;

namespace faultline {

class ImportDialog;
struct PrometheusPullOptions;

class ImportController : public QObject {
    Q_OBJECT
public:
    // Accepts files and folders dropped onto `window`.
    explicit ImportController(QWidget* window);

    void chooseFilesAndImport();
    void chooseFolderAndImport();
    // Asks where to write the run and what to call it, then imports.
    void importPaths(const QStringList& inputs);
    // Imports without asking anything (tests, scripted use). Files whose time spans lie far
    // apart stop the import with their spans in the dialog and an "Import Anyway" button,
    // unless `options.allowDisjoint`.
    void importPaths(const QStringList& inputs, const QString& output, const ImportOptions& options = {});
    // Pulls GPU telemetry from a Prometheus server (remote/) into a new run file, with the same
    // progress, Cancel and report as an import of files.
    void importFromPrometheus(const PrometheusPullOptions& pull, const QString& output, const ImportOptions& options = {});
    void cancel();
    // Where to write the run for these inputs; empty to give up. Defaults to a save dialog.
    void setOutputChooser(std::function<QString(const QStringList&)> choose) { m_chooseOutput = std::move(choose); }
    // The run's name for these inputs (empty: the job's, else the folder's); nullopt to give
    // up. Defaults to a dialog.
    void setNameChooser(std::function<std::optional<QString>(const QStringList&)> choose) { m_chooseName = std::move(choose); }
    bool busy() const { return m_job != nullptr; }
    ImportDialog* dialog() const { return m_dialog; }

signals:
    void imported(const QString& runPath);
    void importFailed(const QString& message);
    void importCancelled();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Job {
        quint64 id = 0;
        std::atomic<bool> cancel{false};
        std::atomic<int> permille{0};  // written by the worker, read by the progress timer
    };
    QString suggestOutput(const QStringList& inputs) const;
    // Runs `work` off the GUI thread, `shown` (what is read) and its progress in the dialog.
    using Work = std::function<ImportSummary(const ProgressFn&, const std::atomic<bool>*)>;
    void runImport(const QStringList& shown, const QString& output, Work work);

    QWidget* m_window;
    ImportDialog* m_dialog = nullptr;
    std::function<QString(const QStringList&)> m_chooseOutput;
    std::function<std::optional<QString>(const QStringList&)> m_chooseName;
    // The last import asked for, to run again when the user confirms disjoint files.
    QStringList m_lastInputs;
    QString m_lastOutput;
    ImportOptions m_lastOptions;
    std::shared_ptr<Job> m_job;
    quint64 m_lastId = 0;
};

}  // namespace faultline
