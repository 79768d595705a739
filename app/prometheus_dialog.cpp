#include "prometheus_dialog.h"

#include "import_controller.h"

#include "model/error.h"
#include "model/format.h"
#include "model/run.h"

#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTimeZone>
#include <QVBoxLayout>

#include <cstdlib>

namespace faultline {

namespace {

QDateTimeEdit* utcEdit(QWidget* parent, const QString& name) {
    auto* edit = new QDateTimeEdit(parent);
    edit->setObjectName(name);
    edit->setTimeSpec(Qt::UTC);  // setTimeZone is Qt 6.7; Debian 12 has 6.4
    edit->setDisplayFormat("yyyy-MM-dd HH:mm:ss 'UTC'");
    edit->setCalendarPopup(true);
    return edit;
}

// A line edit with a Browse... button beside it, for a file.
QWidget* fileField(QWidget* parent, QLineEdit*& edit, const QString& name, const QString& placeholder) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    edit = new QLineEdit(row);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    auto* browse = new QPushButton(QObject::tr("Browse..."), row);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, row] {
        const QString file = QFileDialog::getOpenFileName(row, QObject::tr("Choose File"));
        if (!file.isEmpty()) edit->setText(file);
    });
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    return row;
}

std::vector<std::string> words(const QString& text) {
    std::vector<std::string> out;
    for (const QString& w : text.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts)) out.push_back(w.toStdString());
    return out;
}

EpochNs epochOf(const QDateTime& t) { return static_cast<EpochNs>(t.toMSecsSinceEpoch()) * 1'000'000; }

}  // namespace

PrometheusDialog::PrometheusDialog(QWidget* parent) : QDialog(parent) {
    setObjectName("prometheusDialog");
    setWindowTitle(tr("Import from Prometheus"));
    auto* form = m_form = new QFormLayout;
    m_url = new QLineEdit(this);
    m_url->setObjectName("prometheusUrl");
    m_url->setPlaceholderText("http://prometheus:9090");
    m_from = utcEdit(this, "prometheusFrom");
    m_to = utcEdit(this, "prometheusTo");
    m_hosts = new QPlainTextEdit(this);
    m_hosts->setObjectName("prometheusHosts");
    m_hosts->setPlaceholderText(tr("every host the server has"));
    m_hosts->setMaximumHeight(80);
    m_metrics = new QLineEdit(this);
    m_metrics->setObjectName("prometheusMetrics");
    QString defaults;
    for (const std::string& m : defaultPrometheusMetrics()) defaults += (defaults.isEmpty() ? "" : ", ") + QString::fromStdString(m);
    m_metrics->setPlaceholderText(defaults);
    m_step = new QLineEdit(this);
    m_step->setObjectName("prometheusStep");
    m_step->setPlaceholderText(tr("automatic (15s, coarser past a week)"));
    m_timeout = new QSpinBox(this);
    m_timeout->setObjectName("prometheusTimeout");
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(60);
    m_timeout->setSuffix(" s");
    form->addRow(tr("Server URL:"), m_url);
    form->addRow(tr("From:"), m_from);
    form->addRow(tr("To:"), m_to);
    form->addRow(tr("Hosts:"), m_hosts);
    form->addRow(tr("Metrics:"), m_metrics);
    form->addRow(tr("Step:"), m_step);
    form->addRow(tr("Timeout per request:"), m_timeout);
    form->addRow(tr("Token file:"), fileField(this, m_tokenFile, "prometheusTokenFile", QString::fromLatin1(kTokenVariable)));
    form->addRow(tr("User:password file:"), fileField(this, m_basicAuthFile, "prometheusBasicAuthFile", QString::fromLatin1(kBasicAuthVariable)));
    form->addRow(tr("CA certificates:"), fileField(this, m_caFile, "prometheusCaFile", tr("the system's")));
    m_error = new QLabel(this);
    m_error->setObjectName("prometheusError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet("color: #c62828");
    auto* buttons = m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Pull"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_from->setDateTime(now.addDays(-2));
    m_to->setDateTime(now);
}

void PrometheusDialog::prefill(const Run* run) {
    if (!run) return;
    const qint64 startMs = run->info.startEpochNs / 1'000'000;
    m_from->setDateTime(QDateTime::fromMSecsSinceEpoch(startMs, QTimeZone::utc()));
    m_to->setDateTime(QDateTime::fromMSecsSinceEpoch(startMs + (run->info.duration + 999'999) / 1'000'000, QTimeZone::utc()));
    QStringList hosts;
    for (const Host& h : run->topology.hosts) hosts << QString::fromStdString(h.name);
    m_hosts->setPlainText(hosts.join(", "));
}

void PrometheusDialog::setFollowing(const QString& folder) {
    m_following = true;
    setWindowTitle(tr("Follow %1 with Prometheus").arg(folder));
    m_form->setRowVisible(m_from, false);
    m_form->setRowVisible(m_to, false);
    m_hosts->setPlaceholderText(tr("the hosts the job's files name, else every host the server has"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Follow"));
}

std::optional<PrometheusPullOptions> PrometheusDialog::pullOptions(QString* error) const {
    try {
        PrometheusPullOptions o;
        o.server.url = checkedServerUrl(m_url->text().trimmed().toStdString());
        if (!m_following) {
            o.from = epochOf(m_from->dateTime());
            o.to = epochOf(m_to->dateTime());
            if (o.to <= o.from) throw Error("the span ends before it begins: To must come after From");
        }
        o.hosts = words(m_hosts->toPlainText());
        o.metrics = words(m_metrics->text());
        if (const QString step = m_step->text().trimmed(); !step.isEmpty()) {
            const auto d = parseDuration(step.toStdString());
            if (!d || *d <= 0) throw Error("the step \"" + step.toStdString() + "\" is not a duration such as 15s or 1m");
            o.step = *d;
        }
        o.server.timeoutSeconds = m_timeout->value();
        o.server.caFile = m_caFile->text().trimmed().toStdString();
        o.server.credentials = readPrometheusCredentials(m_tokenFile->text().trimmed().toStdString(), m_basicAuthFile->text().trimmed().toStdString(),
                                                         [](const char* name) { return std::getenv(name); });
        return o;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

void PrometheusDialog::done(int result) {
    if (result == QDialog::Accepted) {
        QString error;
        if (!pullOptions(&error)) {
            m_error->setText(error);
            return;
        }
    }
    QDialog::done(result);
}

void askAndPullFromPrometheus(QWidget* parent, const Run* run, const QString& runPath, ImportController* importer) {
    PrometheusDialog dialog(parent);
    dialog.prefill(run);
    if (dialog.exec() != QDialog::Accepted) return;
    const std::optional<PrometheusPullOptions> pull = dialog.pullOptions(nullptr);
    if (!pull) return;
    const QFileInfo open(runPath);
    const QString suggested = runPath.isEmpty() ? QString() : open.dir().filePath(open.completeBaseName() + "-telemetry.faultline");
    QString output = QFileDialog::getSaveFileName(parent, QObject::tr("Save Pulled Run As"), suggested, QObject::tr("Faultline runs (*.faultline)"));
    if (output.isEmpty()) return;
    if (!output.endsWith(".faultline")) output += ".faultline";
    ImportOptions options;
    if (run) options.runName = run->info.name + " (telemetry)";
    importer->importFromPrometheus(*pull, output, options);
}

}  // namespace faultline
