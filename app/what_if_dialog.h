#pragma once
// Tools > What if...: the open run's failures replayed under another recovery policy
// (simulator/what_if.h), written beside the run, then opened beside it in a comparison.
#include <QDialog>

class QLabel;
class QLineEdit;

namespace faultline {

class WhatIfDialog : public QDialog {
    Q_OBJECT
public:
    WhatIfDialog(const QString& runPath, QWidget* parent = nullptr);
    // The run file the replay will write (beside the run, or in the temporary folder).
    QString outputPath() const;
    QLineEdit* field(const char* name) const;

signals:
    // The replayed run is written: compare it with the run.
    void written(const QString& runPath, const QString& whatIfPath);

private:
    void start();

    QString m_runPath;
    QLineEdit* m_interval;
    QLineEdit* m_save;
    QLineEdit* m_detection;
    QLineEdit* m_restart;
    QLineEdit* m_reload;
    QLabel* m_message;
};

}  // namespace faultline
