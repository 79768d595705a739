#include "incident_view.h"

#include "incident_table_model.h"
#include "model/error.h"
#include "model/format.h"
#include "model/incident_notes.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace faultline {

IncidentView::IncidentView(QWidget* parent)
    : QWidget(parent),
      m_model(new IncidentTableModel(this)),
      m_filter(new QSortFilterProxyModel(this)),
      m_filterEdit(new QLineEdit(this)),
      m_table(new QTableView(this)),
      m_headline(new QLabel(this)),
      m_chain(new QPlainTextEdit(this)),
      m_notes(new QPlainTextEdit(this)),
      m_confirmed(new QComboBox(this)),
      m_tags(new QLineEdit(this)),
      m_saveTimer(new QTimer(this)) {
    setObjectName("incidentView");
    m_filterEdit->setObjectName("incidentFilter");
    m_filterEdit->setPlaceholderText(tr("Filter by cause, hardware, tag..."));
    m_filterEdit->setClearButtonEnabled(true);
    m_filter->setSourceModel(m_model);
    m_filter->setSortRole(Qt::UserRole);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);

    m_table->setObjectName("incidentTable");
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(IncidentTableModel::Time, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(60);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        saveNow();
        showSelected();
    });

    m_headline->setObjectName("incidentHeadline");
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_chain->setObjectName("incidentChain");
    m_chain->setReadOnly(true);
    m_chain->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_chain->setMinimumHeight(40);
    m_notes->setObjectName("incidentNotes");
    m_notes->setPlaceholderText(tr("What was learned: findings, actions, follow-ups"));
    m_notes->setMinimumHeight(40);
    m_confirmed->setObjectName("confirmedCause");
    m_confirmed->addItem(tr("(not confirmed)"), QString());
    for (int c = 0; c < kRootCauseCount; ++c) {
        const auto cause = static_cast<RootCause>(c);
        const std::string_view label = rootCauseLabel(cause), key = rootCauseKey(cause);
        m_confirmed->addItem(QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size())),
                             QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
    }
    m_tags->setObjectName("incidentTags");
    m_tags->setPlaceholderText(tr("tags, separated by commas"));

    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(400);
    connect(m_saveTimer, &QTimer::timeout, this, &IncidentView::saveNow);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &IncidentView::noteEdited);
    connect(m_tags, &QLineEdit::textEdited, this, &IncidentView::noteEdited);
    connect(m_confirmed, &QComboBox::currentIndexChanged, this, &IncidentView::noteEdited);

    auto* detail = new QWidget(this);
    auto* form = new QFormLayout(detail);
    form->addRow(m_headline);
    form->addRow(m_chain);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(tr("Confirmed cause"), m_confirmed);
    form->addRow(tr("Tags"), m_tags);

    // Side by side: the list and the incident under review, as a wide bottom panel wants.
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    auto* scroll = new QScrollArea(this);  // the editors scroll rather than hold the panel tall
    scroll->setWidget(detail);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(scroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filterEdit);
    layout->addWidget(split, 1);
    showSelected();
}

IncidentView::~IncidentView() { saveNow(); }

void IncidentView::setRun(std::shared_ptr<const Run> run, const QString& path) {
    std::vector<Incident> incidents = run ? buildIncidents(*run) : std::vector<Incident>{};
    setRun(std::move(run), std::move(incidents), path);
}

void IncidentView::setRun(std::shared_ptr<const Run> run, std::vector<Incident> incidents, const QString& path) {
    saveNow();
    m_run = std::move(run);
    m_store.reset();
    std::map<Nanos, IncidentNote> notes;
    if (!path.isEmpty()) {
        try {
            m_store = std::make_unique<IncidentNotesStore>(path.toStdString());
            notes = m_store->load();
        } catch (const Error& e) {
            emit noteSaveFailed(tr("Notes are read-only: %1").arg(QString::fromStdString(e.what())));
        }
    }
    m_model->setIncidents(std::move(incidents), std::move(notes), m_run ? m_run->info.startEpochNs : 0);
    m_table->resizeColumnsToContents();
    m_editingRow = -1;
    showSelected();
}

bool IncidentView::selectIncident(int id) {
    const int row = m_model->rowOfId(id);
    if (row < 0) return false;
    const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) return false;  // filtered out
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    return true;
}

int IncidentView::selectedIncidentId() const { return m_editingRow >= 0 ? m_model->incident(m_editingRow).id : -1; }

void IncidentView::showSelected() {
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    m_editingRow = current.isValid() ? current.row() : -1;
    const bool has = m_editingRow >= 0;
    for (QWidget* w : std::initializer_list<QWidget*>{m_notes, m_confirmed, m_tags}) w->setEnabled(has && m_store);
    m_loading = true;
    if (!has) {
        m_headline->setText(m_model->rowCount() ? tr("Select an incident to review it.") : tr("No incidents in this run."));
        m_chain->clear();
        m_notes->clear();
        m_confirmed->setCurrentIndex(0);
        m_tags->clear();
        m_loading = false;
        return;
    }
    const Incident& inc = m_model->incident(m_editingRow);
    const IncidentNote note = m_model->note(m_editingRow);
    m_headline->setText(tr("Incident %1: %2").arg(inc.id).arg(QString::fromStdString(inc.headline)));
    QString chain;
    for (const IncidentEvent& e : inc.chain)
        chain += QString::fromStdString(formatWallTime(m_run->info.startEpochNs, e.time) + "  " + e.what) + "\n";
    m_chain->setPlainText(chain);
    m_notes->setPlainText(QString::fromStdString(note.notes));
    const std::string_view key = note.confirmedCause ? rootCauseKey(*note.confirmedCause) : std::string_view();
    m_confirmed->setCurrentIndex(std::max(0, m_confirmed->findData(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())))));
    m_tags->setText(QString::fromStdString(joinTags(note.tags)));
    m_loading = false;
    emit incidentSelected(inc.begin, inc.gpus);
}

void IncidentView::noteEdited() {
    if (m_loading || m_editingRow < 0 || !m_store) return;
    m_dirty = true;
    m_saveTimer->start();
}

void IncidentView::saveNow() {
    if (!m_dirty || m_editingRow < 0 || !m_store) return;
    m_saveTimer->stop();
    m_dirty = false;
    IncidentNote note = m_model->note(m_editingRow);
    note.notes = m_notes->toPlainText().toStdString();
    note.confirmedCause = rootCauseFromKey(m_confirmed->currentData().toString().toStdString());
    note.tags = splitTags(m_tags->text().toStdString());
    try {
        m_store->save(note);
        m_model->setNote(m_editingRow, note);
    } catch (const Error& e) {
        emit noteSaveFailed(tr("Could not save the note: %1").arg(QString::fromStdString(e.what())));
    }
}

}  // namespace faultline
