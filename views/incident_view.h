#pragma once
// The incident review panel: a sortable, filterable list of a run's incidents; the chain of
// the one selected; and the reviewer's notes, confirmed root cause and tags, saved into the
// run file as they are typed.
#include "analysis/incidents.h"
#include "model/run.h"

#include <QString>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace faultline {

class IncidentNotesStore;
class IncidentTableModel;

class IncidentView : public QWidget {
    Q_OBJECT
public:
    explicit IncidentView(QWidget* parent = nullptr);
    ~IncidentView() override;

    // `path` is the run's file, where notes are kept; empty keeps notes read-only.
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    // With the incidents built already (off the GUI thread, as the app does).
    void setRun(std::shared_ptr<const Run> run, std::vector<Incident> incidents, const QString& path);
    bool selectIncident(int id);
    int selectedIncidentId() const;
    // Writes a pending edit now (also done after a short pause in typing).
    void saveNow();

signals:
    // A reviewer picked an incident: the replay, the timeline and the camera go there.
    void incidentSelected(faultline::Nanos time, const std::vector<std::int32_t>& gpus);
    void noteSaveFailed(const QString& message);

private:
    void showSelected();
    void noteEdited();

    IncidentTableModel* m_model;
    QSortFilterProxyModel* m_filter;
    QLineEdit* m_filterEdit;
    QTableView* m_table;
    QLabel* m_headline;
    QPlainTextEdit* m_chain;
    QPlainTextEdit* m_notes;
    QComboBox* m_confirmed;
    QLineEdit* m_tags;
    QTimer* m_saveTimer;
    std::unique_ptr<IncidentNotesStore> m_store;
    std::shared_ptr<const Run> m_run;
    int m_editingRow = -1;   // the model row the editors show
    bool m_loading = false;  // filling the editors, not the user typing
    bool m_dirty = false;    // edits not yet written
};

}  // namespace faultline
