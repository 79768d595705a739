#include "import_controller.h"

#include "widgets/run_in_background.h"
#include "model/output_guard.h"
#include "import_dialog.h"
#include "importers/importer.h"
#include "importers/time_span_check.h"
#include "analysis/stored_figures.h"
#include "remote/prometheus_pull.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMimeData>
#include <QStandardPaths>
#include <QTimer>
#include <QWidget>

#include <variant>

namespace faultline {

namespace {

struct Cancelled {};
struct Disjoint {
    QString message;
};
using Outcome = std::variant<ImportSummary, QString, Cancelled, Disjoint>;

QStringList localPaths(const QMimeData* mime) {
    QStringList out;
    if (!mime || !mime->hasUrls()) return out;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) out << url.toLocalFile();
    return out;
}

}  // namespace

ImportController::ImportController(QWidget* window) : QObject(window), m_window(window) {
    setObjectName("importController");
    window->setAcceptDrops(true);
    window->installEventFilter(this);
}

void ImportController::chooseFilesAndImport() {
    const QStringList files = QFileDialog::getOpenFileNames(m_window, tr("Import Files"));
    if (!files.isEmpty()) importPaths(files);
}

void ImportController::chooseFolderAndImport() {
    const QString folder = QFileDialog::getExistingDirectory(m_window, tr("Import Folder"));
    if (!folder.isEmpty()) importPaths({folder});
}

QString ImportController::suggestOutput(const QStringList& inputs) const {
    const QFileInfo first(inputs.front());
    QString base = first.isDir() ? first.fileName() : first.completeBaseName();
    if (base.isEmpty()) base = "import";
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QDir(dir.isEmpty() ? QDir::homePath() : dir).filePath(base + ".faultline");
}

void ImportController::importPaths(const QStringList& inputs) {
    if (inputs.isEmpty()) return;
    const QString output = m_chooseOutput ? m_chooseOutput(inputs)
                                          : QFileDialog::getSaveFileName(m_window, tr("Save Imported Run As"), suggestOutput(inputs),
                                                                         tr("Faultline runs (*.faultline)"));
    if (output.isEmpty()) return;
    ImportOptions options;
    if (m_chooseName) {
        const std::optional<QString> name = m_chooseName(inputs);
        if (!name) return;
        options.runName = name->trimmed().toStdString();
    } else {
        bool ok = false;
        const QString name = QInputDialog::getText(m_window, tr("Run Name"),
                                                   tr("Name of the run (leave empty to name it after its training job, else after "
                                                      "the folder of the files):"),
                                                   QLineEdit::Normal, QString(), &ok);
        if (!ok) return;
        options.runName = name.trimmed().toStdString();
    }
    importPaths(inputs, output.endsWith(".faultline") ? output : output + ".faultline", options);
}

void ImportController::cancel() {
    if (m_job) m_job->cancel = true;
}

void ImportController::importPaths(const QStringList& inputs, const QString& output, const ImportOptions& options) {
    if (inputs.isEmpty()) return;
    m_lastInputs = inputs;
    m_lastOutput = output;
    m_lastOptions = options;
    std::vector<std::string> paths;
    for (const QString& p : inputs) paths.push_back(p.toStdString());
    const std::string out = output.toStdString();
    runImport(inputs, output, [paths, out, options](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        // The dialog asked before replacing a file; what is imported is never written over.
        checkOutput(out, OutputKind::RunFile, paths, true);
        return importToRunFile(paths, out, options, progress, cancel);
    });
}

void ImportController::importFromPrometheus(const PrometheusPullOptions& pull, const QString& output, const ImportOptions& options) {
    const std::string out = output.toStdString();
    runImport({QString::fromStdString(pull.server.url)}, output, [pull, out, options](const ProgressFn& progress, const std::atomic<bool>* cancel) {
        checkOutput(out, OutputKind::RunFile, {}, true);
        ImportResult result = importWithPrometheus({}, options, pull, progress, cancel);
        if (cancel && cancel->load()) throw ImportCancelled();
        writeRunFileWithFigures(result.run, out, result.pulls, &result.stragglers);
        result.summary.output = out;
        return result.summary;
    });
}

void ImportController::runImport(const QStringList& shown, const QString& output, Work run) {
    cancel();  // a newer import makes the one in progress stale
    auto job = std::make_shared<Job>();
    job->id = ++m_lastId;
    m_job = job;

    if (!m_dialog) {
        m_dialog = new ImportDialog(m_window);
        connect(m_dialog, &ImportDialog::cancelRequested, this, &ImportController::cancel);
        connect(m_dialog, &ImportDialog::importAnywayRequested, this, [this] {
            ImportOptions again = m_lastOptions;
            again.allowDisjoint = true;
            importPaths(m_lastInputs, m_lastOutput, again);
        });
    }
    m_dialog->start(shown, output);
    m_dialog->show();

    // Progress reaches the GUI a few times a second, however often the parser reports it.
    auto* timer = new QTimer(this);
    timer->setInterval(100);
    connect(timer, &QTimer::timeout, this, [this, job] {
        if (m_job == job && m_dialog) m_dialog->setProgress(job->permille.load());
    });
    timer->start();

    auto work = [job, run = std::move(run)]() -> Outcome {
        try {
            const ProgressFn progress = [job](double f) { job->permille = static_cast<int>(f * 1000.0); };
            return run(progress, &job->cancel);
        } catch (const ImportCancelled&) {
            return Cancelled{};
        } catch (const DisjointSpans& e) {
            return Disjoint{QString::fromStdString(e.what())};
        }
    };
    runInBackground(this, std::move(work), [this, timer, job, output](const BackgroundResult<Outcome>& result) {
        timer->deleteLater();
        const Outcome outcome = std::holds_alternative<Outcome>(result) ? std::get<Outcome>(result) : Outcome(errorOf(result));
        if (m_job != job) return;  // stale: a newer import replaced it
        m_job.reset();
        if (const auto* summary = std::get_if<ImportSummary>(&outcome)) {
            m_dialog->finish(QString::fromStdString(importSummaryToText(*summary)));
            emit imported(output);
        } else if (const auto* disjoint = std::get_if<Disjoint>(&outcome)) {
            m_dialog->askToMergeDisjoint(disjoint->message);
            emit importFailed(disjoint->message);
        } else if (const auto* message = std::get_if<QString>(&outcome)) {
            m_dialog->fail(*message);
            emit importFailed(*message);
        } else {
            m_dialog->cancelled();
            emit importCancelled();
        }
    });
}

bool ImportController::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::DragEnter) {
        auto* e = static_cast<QDragEnterEvent*>(event);
        if (!localPaths(e->mimeData()).isEmpty()) {
            e->acceptProposedAction();
            return true;
        }
    } else if (watched == m_window && event->type() == QEvent::Drop) {
        auto* e = static_cast<QDropEvent*>(event);
        const QStringList paths = localPaths(e->mimeData());
        if (!paths.isEmpty()) {
            e->acceptProposedAction();
            // Ask for the output after the drop has finished, not inside the drag's event loop.
            QTimer::singleShot(0, this, [this, paths] { importPaths(paths); });
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace faultline
