#include "views/incident_view.h"

#include "views/incident_filter_proxy.h"
#include "views/incident_table_model.h"
#include "analysis/rank_places.h"
#include "analysis/next_checks.h"
#include "model/error.h"
#include "model/format.h"
#include "model/incident_notes.h"
#include "model/review_editing_mark.h"
#include "model/review_file.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>

#include <algorithm>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace faultline {

QString nextChecksHtml(const std::vector<NextCheck>& checks) {
    if (checks.empty()) return {};
    QString html = "<b>" + QObject::tr("What to check next") + "</b>";
    for (const NextCheck& c : checks)
        html += "<p style='margin-top:4px'><b>" + QString::fromStdString(c.evidence).toHtmlEscaped() + "</b>: " +
                QString::fromStdString(c.meaning).toHtmlEscaped() + "<br>" + QObject::tr("Check: ") +
                QString::fromStdString(c.check).toHtmlEscaped() + "<br><i>" + QObject::tr("Source: ") +
                QString::fromStdString(c.source).toHtmlEscaped() + "</i></p>";
    return html;
}

namespace {

// The list as wide as its columns (up to two thirds of the panel), so that none runs off its
// edge where there is room; the review pane takes the rest.
void fitList(QSplitter& split, const QTableView& table) {
    const int columns = table.property("columnsWidth").toInt();
    const int total = split.width() - split.handleWidth();
    if (columns <= 0 || total <= 0) return;
    const int wanted = std::min(total * 2 / 3, columns + 2 * table.frameWidth() + table.verticalScrollBar()->sizeHint().width() + 2);
    if (split.sizes().value(0) != wanted) split.setSizes({wanted, total - wanted});
}

}  // namespace

IncidentView::IncidentView(QWidget* parent)
    : QWidget(parent),
      m_model(new IncidentTableModel(this)),
      m_filter(new IncidentFilterProxy(this)),
      m_causeChip(new QPushButton(this)),
      m_filterEdit(new QLineEdit(this)),
      m_table(new QTableView(this)),
      m_headline(new QLabel(this)),
      m_notesWhere(new QLabel(this)),
      m_chain(new QPlainTextEdit(this)),
      m_nextChecks(new QLabel(this)),
      m_showHang(new QPushButton(tr("Show the Hang..."), this)),
      m_notes(new QPlainTextEdit(this)),
      m_confirmed(new QComboBox(this)),
      m_tags(new QLineEdit(this)),
      m_saveTimer(new QTimer(this)) {
    setObjectName("incidentView");
    setUpList();
    setUpReview();
    layOut();
    showSelected();
}

// The list: its filter field, the cause chip, and the table whose selection is the incident.
void IncidentView::setUpList() {
    m_filterEdit->setObjectName("incidentFilter");
    m_filterEdit->setPlaceholderText(tr("Filter by cause, hardware, tag..."));
    m_filterEdit->setClearButtonEnabled(true);
    m_filter->setSourceModel(m_model);
    m_filter->setSortRole(Qt::UserRole);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    m_causeChip->setObjectName("causeFilter");
    m_causeChip->setToolTip(tr("Only this root cause's incidents are listed; click to list all"));
    m_causeChip->hide();
    connect(m_causeChip, &QPushButton::clicked, this, [this] {
        setCauseFilter(std::nullopt);
        emit causeFilterChanged(std::nullopt);
    });

    m_table->setObjectName("incidentTable");
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(IncidentTableModel::Time, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // Rows a line of text high: the short dock of a 1280x720 screen lists four incidents, not two.
    m_table->verticalHeader()->setMinimumSectionSize(m_table->fontMetrics().height() + 4);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(60);
    // An incident is chosen by a click on its row or a key press in the list, which select it;
    // nothing else does: not sorting, not the focus arriving (which only moves the current
    // cell), so the replay moves only when asked.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        saveNow();
        showSelected();
        emitSelected();
    });
    // A click on the incident selected already goes back to it (after playing away).
    m_table->viewport()->installEventFilter(this);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (m_rowAtPress >= 0 && m_filter->mapToSource(index).row() == m_rowAtPress) emitSelected();
    });
}

// The incident under review: its headline, chain, what to check next, and the reviewer's editors.
void IncidentView::setUpReview() {
    m_headline->setObjectName("incidentHeadline");
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_chain->setObjectName("incidentChain");
    m_chain->setReadOnly(true);
    m_chain->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_chain->setMinimumHeight(40);
    m_chain->setToolTip(tr("Click a line to move the replay to that moment"));
    m_chain->viewport()->setCursor(Qt::PointingHandCursor);
    m_chain->viewport()->installEventFilter(this);
    m_nextChecks->setObjectName("incidentNextChecks");
    m_nextChecks->setWordWrap(true);
    m_nextChecks->setTextFormat(Qt::RichText);
    m_nextChecks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_showHang->setObjectName("showHangButton");
    m_showHang->setToolTip(tr("Who hung the job: every rank's collectives around the hang, and whom each waiting rank waited for"));
    m_showHang->hide();
    connect(m_showHang, &QPushButton::clicked, this, [this] {
        if (m_editingRow < 0) return;
        const Incident& inc = m_model->incident(m_editingRow);
        if (!inc.suspectRanks.empty()) emit hangRequested(inc.suspectRanks.front());
    });
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
    m_notesWhere->setObjectName("notesLocation");
    m_notesWhere->setWordWrap(true);
    m_notesWhere->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tags->setPlaceholderText(tr("tags, separated by commas"));

    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(400);
    connect(m_saveTimer, &QTimer::timeout, this, &IncidentView::saveNow);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &IncidentView::noteEdited);
    connect(m_tags, &QLineEdit::textEdited, this, &IncidentView::noteEdited);
    connect(m_confirmed, &QComboBox::currentIndexChanged, this, &IncidentView::noteEdited);
}

// Side by side: the list and the incident under review, as a wide bottom panel wants.
void IncidentView::layOut() {
    auto* detail = new QWidget(this);
    auto* form = new QFormLayout(detail);
    form->addRow(m_headline);
    form->addRow(m_chain);
    form->addRow(m_nextChecks);
    form->addRow(m_showHang);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(tr("Confirmed cause"), m_confirmed);
    form->addRow(tr("Tags"), m_tags);
    form->addRow(m_notesWhere);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    auto* scroll = new QScrollArea(this);  // the editors scroll rather than hold the panel tall
    scroll->setWidget(detail);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(scroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setObjectName("incidentSplit");
    split->installEventFilter(this);  // resized: the list keeps the width its columns need
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_filterEdit, 1);
    // Unexpected interruptions are what a review is about; planned work is listed on request.
    auto* kind = new QComboBox(this);
    kind->setObjectName("incidentKind");
    kind->addItems({tr("All"), tr("Unexpected"), tr("Planned")});
    kind->setToolTip(tr("List every incident, only the unexpected interruptions, or only planned maintenance"));
    connect(kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_filter->setPlanned(i == 0 ? std::nullopt : std::optional<bool>(i == 2));
    });
    filters->addWidget(kind);
    filters->addWidget(m_causeChip);
    layout->addLayout(filters);
    layout->addWidget(split, 1);
}

IncidentView::~IncidentView() { saveNow(); }

void IncidentView::setCauseFilter(std::optional<RootCause> cause) {
    m_filter->setCause(cause);
    if (cause) {
        const std::string_view label = rootCauseLabel(*cause);
        m_causeChip->setText(tr("Only %1 (%2)  ✕").arg(QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()))).arg(m_filter->rowCount()));
    }
    m_causeChip->setVisible(cause.has_value());
}

std::optional<RootCause> IncidentView::causeFilter() const { return m_filter->cause(); }

int IncidentView::visibleIncidentCount() const { return m_filter->rowCount(); }

bool IncidentView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize)
        if (auto* split = qobject_cast<QSplitter*>(watched)) fitList(*split, *m_table);
    if (watched == m_table->viewport() && event->type() == QEvent::MouseButtonPress) m_rowAtPress = m_editingRow;
    if (watched == m_chain->viewport() && event->type() == QEvent::MouseButtonRelease && m_editingRow >= 0) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const int line = m_chain->cursorForPosition(mouse->position().toPoint()).block().blockNumber();
        const Incident& inc = m_model->incident(m_editingRow);
        if (line >= 0 && line < static_cast<int>(inc.chain.size())) emit chainEventClicked(inc.chain[static_cast<std::size_t>(line)].time);
    }
    return QWidget::eventFilter(watched, event);
}

void IncidentView::setRun(std::shared_ptr<const Run> run, const QString& path) {
    std::vector<Incident> incidents = run ? buildIncidents(*run) : std::vector<Incident>{};
    setRun(std::move(run), std::move(incidents), path);
}

void IncidentView::setRun(std::shared_ptr<const Run> run, std::vector<Incident> incidents, const QString& path) {
    saveNow();
    m_run = std::move(run);
    m_runPath = path;
    m_store.reset();
    m_mark.reset();  // this panel's edits of the last run ended as they should
    std::map<Nanos, IncidentNote> notes;
    int restored = 0;
    if (!path.isEmpty()) {
        try {
            m_store = std::make_unique<IncidentNotesStore>(path.toStdString());
            m_mark = std::make_unique<ReviewEditingMark>(m_store->reviewPath());
            notes = m_store->load();
            for (Nanos begin : takeEditsOfEndedWindows(m_store->reviewPath())) restored += notes.contains(begin) ? 1 : 0;
        } catch (const Error& e) {
            m_store.reset();
            m_mark.reset();
            emit noteSaveFailed(tr("Notes are read-only: %1").arg(QString::fromStdString(e.what())));
        }
    }
    const QString restoredText = restored == 0 ? QString()
                                 : restored == 1
                                     ? tr("Restored 1 note you typed before Faultline closed unexpectedly.")
                                     : tr("Restored %1 notes you typed before Faultline closed unexpectedly.").arg(restored);
    m_restored = restoredText;
    m_notesWhere->setText(restored ? restoredText + " " + notesLocation() : notesLocation());
    // A run whose logs name no rank (a simulated one, a kernel log) spends no width on Ranks.
    const bool ranked = std::any_of(incidents.begin(), incidents.end(), [](const Incident& i) { return !i.reportingRanks.empty() || !i.suspectRanks.empty(); });
    m_table->setColumnHidden(IncidentTableModel::Ranks, !ranked);
    // Lost work is a downtime figure: under the same rule as the summary's tiles.
    const FigureEvidence lostWork = m_run ? lostWorkEvidence(*m_run) : supportedFigure();
    m_model->setIncidents(std::move(incidents), std::move(notes), m_run ? m_run->info.startEpochNs : 0, lostWork);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->resizeColumnsToContents();
    // The width the columns need, for fitList (a property: the list's own, kept with it).
    m_table->setProperty("columnsWidth", m_table->horizontalHeader()->length());
    m_table->horizontalHeader()->setStretchLastSection(true);
    if (auto* split = findChild<QSplitter*>("incidentSplit")) fitList(*split, *m_table);
    m_editingRow = -1;
    showSelected();
}

bool IncidentView::selectIncident(int id) {
    const int row = m_model->rowOfId(id);
    if (row < 0) return false;
    const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) return false;  // filtered out
    const bool already = m_filter->mapToSource(index).row() == m_editingRow;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    if (already) emitSelected();
    return true;
}

void IncidentView::selectIncidentAt(Nanos t) {
    for (int r = 0; r < m_filter->rowCount(); ++r) {
        const QModelIndex index = m_filter->index(r, 0);
        const Incident& inc = m_model->incident(m_filter->mapToSource(index).row());
        if (inc.begin == t) {
            selectIncident(inc.id);
            return;
        }
    }
    m_table->clearSelection();
}

int IncidentView::selectedIncidentId() const { return m_editingRow >= 0 ? m_model->incident(m_editingRow).id : -1; }

void IncidentView::showSelected() {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const QModelIndex current = rows.isEmpty() ? QModelIndex() : m_filter->mapToSource(rows.front());
    m_editingRow = current.isValid() ? current.row() : -1;
    const bool has = m_editingRow >= 0;
    for (QWidget* w : std::initializer_list<QWidget*>{m_notes, m_confirmed, m_tags}) w->setEnabled(has && m_store);
    m_loading = true;
    if (!has) {
        m_headline->setText(m_model->rowCount() ? tr("Select an incident to review it.") : tr("No incidents in this run."));
        m_chain->clear();
        m_nextChecks->clear();
        m_nextChecks->hide();
        m_showHang->hide();
        m_notes->clear();
        m_confirmed->setCurrentIndex(0);
        m_tags->clear();
        m_loading = false;
        return;
    }
    const Incident& inc = m_model->incident(m_editingRow);
    const IncidentNote note = m_model->note(m_editingRow);
    m_headline->setText(tr("Incident %1: %2").arg(inc.id).arg(QString::fromStdString(inc.headline)));
    QString chain;  // line i is event i: a click on it goes there
    for (const IncidentEvent& e : inc.chain)
        chain += QString::fromStdString(formatWallTime(m_run->info.startEpochNs, e.time) + "  " + e.what) + "\n";
    // Who, as the CLI's chain and the inspector say it: the ranks that reported it and the suspects.
    if (const std::string who = ranksOfFailureText(inc.reportingRanks, inc.suspectRanks, inc.suspectReason); !who.empty())
        chain += QString::fromStdString(who) + "\n";
    // When, saying where the time is the import's guess (no time printed, no year printed).
    chain += QString::fromStdString("when: " + incidentWhenText(inc, *m_run)) + "\n";
    // Where each ran, as the evidence places it ("rank 10 (host unknown)" where nothing does).
    if (const std::string where = incidentRankPlacesText(*m_run, inc); !where.empty()) chain += QString::fromStdString("where: " + where) + "\n";
    m_chain->setPlainText(chain);
    // Beside the evidence: what it means and what to check next, with where that comes from.
    const std::vector<NextCheck> checks = nextChecks(inc, *m_run);
    m_nextChecks->setText(nextChecksHtml(checks));
    m_nextChecks->setVisible(!checks.empty());
    // The Flight Recorder dumps name this incident's suspects as the hang's culprits.
    const bool hangIncident = m_run->hang && std::any_of(inc.suspectRanks.begin(), inc.suspectRanks.end(), [&](std::int32_t r) {
        return std::find(m_run->hang->culprits.begin(), m_run->hang->culprits.end(), r) != m_run->hang->culprits.end();
    });
    m_showHang->setVisible(hangIncident);
    // A note too long to edit is shown cut and kept whole: saving the cut text would lose the rest.
    const bool tooLong = note.notes.size() > kNoteShownBytes;
    m_notes->setPlainText(QString::fromStdString(noteExcerpt(note.notes)));
    m_notes->setReadOnly(tooLong);
    const std::string_view key = note.confirmedCause ? rootCauseKey(*note.confirmedCause) : std::string_view();
    m_confirmed->setCurrentIndex(std::max(0, m_confirmed->findData(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())))));
    m_tags->setText(QString::fromStdString(joinTags(note.tags)));
    m_loading = false;
}

void IncidentView::emitSelected() {
    if (m_editingRow < 0) return;
    const Incident& inc = m_model->incident(m_editingRow);
    emit incidentSelected(inc.begin, inc.gpus);
}

QString IncidentView::notesLocation() const {
    if (!m_store) return m_runPath.isEmpty() ? tr("Notes cannot be kept for this run.") : tr("Notes are read-only for this run.");
    const QString review = QString::fromStdString(m_store->reviewPath());
    const QFileInfo run(m_runPath);
    const QString protectedRun = run.isWritable() && (run.permissions() & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther))
                                     ? QString()
                                     : tr("The run file is write-protected. ");
    return protectedRun + tr("Notes are saved to %1; the run file is never changed by viewing (File > Save Review into Run File copies them into it).")
                              .arg(review);
}

bool IncidentView::saveReviewIntoRunFile() {
    saveNow();
    if (m_runPath.isEmpty() || !m_store) {
        emit noteSaveFailed(tr("There is no review to save: no run with notes is open."));
        return false;
    }
    try {
        faultline::saveReviewIntoRunFile(m_runPath.toStdString());
    } catch (const Error& e) {
        emit noteSaveFailed(tr("Could not save the review into the run file: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_notesWhere->setText(tr("The review was saved into %1. ").arg(m_runPath) + notesLocation());
    return true;
}

QString IncidentView::notesStatus() const {
    // A status line's length: the folder and the rest are in the review pane (notesLocation).
    const QString where = m_store ? tr("Notes are saved to %1.").arg(QFileInfo(QString::fromStdString(m_store->reviewPath())).fileName())
                                  : notesLocation();
    return m_restored.isEmpty() ? where : m_restored + " " + where;
}

bool IncidentView::focusNotes() {
    if (m_editingRow < 0 || !m_notes->isEnabled() || m_notes->isReadOnly()) return false;
    m_notes->setFocus(Qt::ShortcutFocusReason);
    m_notes->moveCursor(QTextCursor::End);
    return true;
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
    if (!m_notes->isReadOnly()) note.notes = m_notes->toPlainText().toStdString();
    note.confirmedCause = rootCauseFromKey(m_confirmed->currentData().toString().toStdString());
    note.tags = splitTags(m_tags->text().toStdString());
    try {
        // Marked first: killed between the two, the next open counts a note that was not
        // written (it finds none) rather than miss one that was.
        m_mark->noteEdited(note.incidentBegin);
        m_store->save(note);
        m_model->setNote(m_editingRow, note);
    } catch (const Error& e) {
        emit noteSaveFailed(tr("Could not save the note: %1").arg(QString::fromStdString(e.what())));
    }
}

}  // namespace faultline
