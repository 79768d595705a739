#pragma once
// File > Import from Prometheus...: where to pull GPU telemetry from and what of it. The span
// and the hosts come pre-filled from the open run (its start to its end, its topology's
// hosts); credentials are named by file (or taken from the environment), never typed in.
// The fields become a PrometheusPullOptions here, where they enter (remote/prometheus_pull.h).
#include "remote/prometheus_pull.h"

#include <QDialog>

#include <optional>

class QDateTimeEdit;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace faultline {

class PrometheusDialog : public QDialog {
    Q_OBJECT
public:
    explicit PrometheusDialog(QWidget* parent = nullptr);

    // The open run's span and hosts; nothing for no run.
    void prefill(const Run* run);
    // For following `folder` (File > Follow Job Folder with Prometheus): no span asked, as a
    // followed pull goes from the files' first event up to now at each look.
    void setFollowing(const QString& folder);
    // The pull the fields say; nullopt with the reason in `error` (shown under the fields).
    std::optional<PrometheusPullOptions> pullOptions(QString* error) const;

    void done(int result) override;  // OK only with fields that make a pull

private:
    QLineEdit* m_url;
    QDateTimeEdit* m_from;
    QDateTimeEdit* m_to;
    QPlainTextEdit* m_hosts;
    QLineEdit* m_metrics;
    QLineEdit* m_step;
    QSpinBox* m_timeout;
    QLineEdit* m_tokenFile;
    QLineEdit* m_basicAuthFile;
    QLineEdit* m_caFile;
    QLabel* m_error;
    QFormLayout* m_form;
    QDialogButtonBox* m_buttons;
    bool m_following = false;
};

class ImportController;

// File > Import from Prometheus...: the dialog on the open run (null: none), then where to
// write the pulled run (a file of its own: the open run's file is evidence and never written),
// then the pull through `importer`, whose run is opened when ready.
void askAndPullFromPrometheus(QWidget* parent, const Run* run, const QString& runPath, ImportController* importer);

}  // namespace faultline
