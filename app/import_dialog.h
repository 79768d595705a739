#pragma once
// The import in progress: what is being read, a progress bar and Cancel; then what was read
// (the same report `faultline-cli import` prints) or why it failed.
#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace faultline {

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ImportDialog(QWidget* parent = nullptr);

    void start(const QStringList& inputs, const QString& output);
    void setProgress(int permille);
    void finish(const QString& report);
    void fail(const QString& message);
    void cancelled();
    // The files' time spans lie far apart: says so with each file's span, offering to
    // import them as one run anyway.
    void askToMergeDisjoint(const QString& message);

    QString statusText() const;
    QString reportText() const;

signals:
    void cancelRequested();
    void importAnywayRequested();

private:
    QLabel* m_status;
    QProgressBar* m_progress;
    QPlainTextEdit* m_report;
    QPushButton* m_cancel;
    QPushButton* m_close;
    QPushButton* m_importAnyway;
};

}  // namespace faultline
