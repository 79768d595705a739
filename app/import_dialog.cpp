#include "import_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace faultline {

ImportDialog::ImportDialog(QWidget* parent)
    : QDialog(parent),
      m_status(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_report(new QPlainTextEdit(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_close(new QPushButton(tr("Close"), this)),
      m_importAnyway(new QPushButton(tr("Import Anyway as One Run"), this)) {
    setObjectName("importDialog");
    setWindowTitle(tr("Import"));
    m_status->setObjectName("importStatus");
    m_status->setWordWrap(true);
    m_progress->setObjectName("importProgress");
    m_progress->setRange(0, 1000);
    m_report->setObjectName("importReport");
    m_report->setReadOnly(true);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->hide();
    m_cancel->setObjectName("importCancel");
    m_close->setObjectName("importClose");
    m_importAnyway->setObjectName("importAnyway");
    m_importAnyway->hide();
    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    buttons->addButton(m_close, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_importAnyway, QDialogButtonBox::ActionRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_report, 1);
    layout->addWidget(buttons);
    connect(m_cancel, &QPushButton::clicked, this, &ImportDialog::cancelRequested);
    connect(m_close, &QPushButton::clicked, this, &QDialog::accept);
    connect(m_importAnyway, &QPushButton::clicked, this, &ImportDialog::importAnywayRequested);
    resize(640, 200);
}

void ImportDialog::start(const QStringList& inputs, const QString& output) {
    const QString what = inputs.size() == 1 ? QFileInfo(inputs.front()).fileName() : tr("%n files and folders", nullptr, static_cast<int>(inputs.size()));
    m_status->setText(tr("Importing %1 into %2...").arg(what, QFileInfo(output).fileName()));
    m_progress->setValue(0);
    m_progress->show();
    m_report->clear();
    m_report->hide();
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_close->hide();
    m_importAnyway->hide();
    resize(width(), 200);
}

void ImportDialog::setProgress(int permille) { m_progress->setValue(permille); }

void ImportDialog::finish(const QString& report) {
    m_status->setText(tr("Imported. The run opens in the window."));
    m_progress->setValue(1000);
    m_report->setPlainText(report);
    m_report->show();
    m_cancel->hide();
    m_close->show();
    resize(width(), 480);
}

void ImportDialog::fail(const QString& message) {
    m_status->setText(tr("Import failed; nothing was written.\n%1").arg(message));
    m_progress->hide();
    m_cancel->hide();
    m_close->show();
}

void ImportDialog::cancelled() {
    m_status->setText(tr("Import cancelled; nothing was written."));
    m_progress->hide();
    m_cancel->hide();
    m_close->show();
}

void ImportDialog::askToMergeDisjoint(const QString& message) {
    m_status->setText(tr("Not imported: these files do not look like one run. Nothing was written."));
    m_report->setPlainText(message);
    m_report->show();
    m_progress->hide();
    m_cancel->hide();
    m_close->show();
    m_importAnyway->show();
    resize(width(), 420);
}

QString ImportDialog::statusText() const { return m_status->text(); }
QString ImportDialog::reportText() const { return m_report->toPlainText(); }

}  // namespace faultline
