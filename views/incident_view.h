#pragma once
// The incident review panel: a sortable, filterable list of a run's incidents; the chain of
// the one selected; and the reviewer's notes, confirmed root cause and tags, saved as they are
// typed into the review file beside the run (the run file itself is evidence, never written
// by viewing; only "save review into run file" copies the review into it).
#include "analysis/incidents.h"
#include "model/run.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace faultline {

class IncidentFilterProxy;
class IncidentNotesStore;
class ReviewEditingMark;
class IncidentTableModel;

struct NextCheck;
// The catalogue's entries for an incident as the incident view and the inspector show them.
QString nextChecksHtml(const std::vector<NextCheck>& checks);

class IncidentView : public QWidget {
    Q_OBJECT
public:
    explicit IncidentView(QWidget* parent = nullptr);
    ~IncidentView() override;

    // `path` is the run's file, whose review file keeps the notes; empty keeps them read-only.
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    // With the incidents built already (off the GUI thread, as the app does).
    void setRun(std::shared_ptr<const Run> run, std::vector<Incident> incidents, const QString& path);
    // Selects the incident and goes there (incidentSelected), also when it is selected already.
    bool selectIncident(int id);
    // Selects the listed incident that begins at `t` (the one N and P reached); with none
    // listed, clears the selection, so the pane never names another incident than the replay.
    void selectIncidentAt(Nanos t);
    // Lists only the incidents of this root cause (nullopt: all), with a button to clear it.
    void setCauseFilter(std::optional<RootCause> cause);
    std::optional<RootCause> causeFilter() const;
    // Rows the list shows now.
    int visibleIncidentCount() const;
    int selectedIncidentId() const;
    // Writes a pending edit now (also done after a short pause in typing).
    void saveNow();
    // Copies the review into the run file itself, as File > Save Review into Run File asks;
    // false (with noteSaveFailed) when it cannot be written.
    bool saveReviewIntoRunFile();
    // Where the notes go, in words, as the panel shows it.
    QString notesLocation() const;
    // The status line's words on the notes of the run opened: the notes restored, typed in a
    // window whose app was killed before it closed (they were saved as they were typed), then
    // the review file's name.
    QString notesStatus() const;
    // Puts the cursor at the end of the selected incident's note, for typing; false when no
    // incident is selected or its notes cannot be written.
    bool focusNotes();

signals:
    // A reviewer picked an incident: the replay, the timeline and the camera go there.
    void incidentSelected(faultline::Nanos time, const std::vector<std::int32_t>& gpus);
    // A line of the selected incident's chain was clicked: go to that moment.
    void chainEventClicked(faultline::Nanos time);
    // The cause filter was cleared (or set) here.
    void causeFilterChanged(std::optional<faultline::RootCause> cause);
    void noteSaveFailed(const QString& message);
    // "Show the hang" was clicked for an incident the Flight Recorder dumps explain: `rank` is its culprit.
    void hangRequested(std::int32_t rank);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setUpList();
    void setUpReview();
    void layOut();
    void showSelected();
    void emitSelected();
    void noteEdited();

    IncidentTableModel* m_model;
    IncidentFilterProxy* m_filter;
    QPushButton* m_causeChip;
    QLineEdit* m_filterEdit;
    QTableView* m_table;
    QLabel* m_headline;
    QLabel* m_notesWhere;
    QString m_runPath;
    QPlainTextEdit* m_chain;
    QLabel* m_nextChecks;  // what to check next for this kind of failure, with its source
    QPushButton* m_showHang;  // for an incident whose suspects are the hang's culprits
    QPlainTextEdit* m_notes;
    QComboBox* m_confirmed;
    QLineEdit* m_tags;
    QTimer* m_saveTimer;
    QString m_restored;  // what the open said of notes restored, if any
    std::unique_ptr<IncidentNotesStore> m_store;
    // On disk while this panel has written notes of the run: a kill leaves it for the next open.
    std::unique_ptr<ReviewEditingMark> m_mark;
    std::shared_ptr<const Run> m_run;
    int m_editingRow = -1;   // the model row the editors show
    int m_rowAtPress = -1;   // the row selected when the mouse went down on the list
    bool m_loading = false;  // filling the editors, not the user typing
    bool m_dirty = false;    // edits not yet written
};

}  // namespace faultline
