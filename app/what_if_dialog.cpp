#include "what_if_dialog.h"
#include "analysis/stored_figures.h"

#include "widgets/run_in_background.h"
#include "model/output_guard.h"
#include "model/error.h"
#include "model/format.h"
#include "model/run_file.h"
#include "simulator/what_if.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <optional>

namespace faultline {

namespace {

QLineEdit* durationField(const QString& placeholder, const char* name, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    return edit;
}

}  // namespace

WhatIfDialog::WhatIfDialog(const QString& runPath, QWidget* parent)
    : QDialog(parent),
      m_runPath(runPath),
      m_interval(durationField(tr("e.g. 5m"), "checkpointInterval", this)),
      m_save(durationField(tr("as measured (mean save)"), "saveTime", this)),
      m_detection(durationField(tr("as measured at each incident"), "detection", this)),
      m_restart(durationField(tr("as measured at each incident"), "restart", this)),
      m_reload(durationField(tr("as measured at each incident"), "reload", this)),
      m_message(new QLabel(this)) {
    setObjectName("whatIfDialog");
    setWindowTitle(tr("What If"));
    m_interval->setText("5m");
    auto* form = new QFormLayout;
    form->addRow(tr("Checkpoint every"), m_interval);
    form->addRow(tr("Save takes"), m_save);
    form->addRow(tr("Detection takes"), m_detection);
    form->addRow(tr("Restart takes"), m_restart);
    form->addRow(tr("Reload takes"), m_reload);
    auto* intro = new QLabel(tr("Replays this run's failures, at the same moments on the same hardware, under another recovery "
                                "policy, and opens the result beside the run. Durations: 90s, 5m, 1h."),
                             this);
    intro->setWordWrap(true);
    m_message->setObjectName("whatIfMessage");
    m_message->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Replay and Compare"));
    connect(buttons, &QDialogButtonBox::accepted, this, &WhatIfDialog::start);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* column = new QVBoxLayout(this);
    column->addWidget(intro);
    column->addLayout(form);
    column->addWidget(m_message);
    column->addWidget(buttons);
}

QLineEdit* WhatIfDialog::field(const char* name) const { return findChild<QLineEdit*>(name); }

QString WhatIfDialog::outputPath() const {
    const QFileInfo run(m_runPath);
    const QString name = run.completeBaseName() + "-whatif-" + m_interval->text().trimmed() + ".faultline";
    const QFileInfo dir(run.absolutePath());
    return QDir(dir.isWritable() ? dir.absoluteFilePath() : QDir::tempPath()).filePath(name);
}

void WhatIfDialog::start() {
    RecoveryPolicy policy;
    auto read = [this](QLineEdit* edit, const QString& what, bool required) -> std::optional<std::optional<Nanos>> {
        const QString text = edit->text().trimmed();
        if (text.isEmpty() && !required) return std::optional<Nanos>();
        const auto d = parseDuration(text.toStdString());
        if (!d || *d < 0 || (required && *d == 0)) {
            m_message->setText(tr("%1 expects a duration such as 90s, 5m or 1h30m, not \"%2\"").arg(what, text));
            edit->setFocus();
            return std::nullopt;
        }
        return std::optional<Nanos>(*d);
    };
    const auto interval = read(m_interval, tr("Checkpoint every"), true);
    if (!interval) return;
    policy.checkpointInterval = **interval;
    const auto save = read(m_save, tr("Save takes"), false);
    const auto detection = read(m_detection, tr("Detection takes"), false);
    const auto restart = read(m_restart, tr("Restart takes"), false);
    const auto reload = read(m_reload, tr("Reload takes"), false);
    if (!save || !detection || !restart || !reload) return;
    policy.saveTime = *save;
    policy.detection = *detection;
    policy.restart = *restart;
    policy.reload = *reload;

    const QString out = outputPath();
    m_message->setText(tr("Replaying into %1...").arg(out));
    setEnabled(false);
    runInBackground(this, [run = m_runPath, out, policy] {
            // The dialog asked before replacing a file; the run replayed is never written over.
            checkOutput(out.toStdString(), OutputKind::RunFile, {run.toStdString()}, true);
            writeRunFileWithFigures(replayWithPolicy(readRunFile(run.toStdString()), policy), out.toStdString());
        },
        [this, out](const BackgroundResult<std::monostate>& result) {
            setEnabled(true);
            if (const QString error = errorOf(result); !error.isEmpty()) {
                m_message->setText(error);
                return;
            }
            emit written(m_runPath, out);
            accept();
        });
}

}  // namespace faultline
