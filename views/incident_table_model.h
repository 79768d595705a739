#pragma once
// The incidents of a run as table rows, with the reviewer's notes beside them. Sorting uses
// the raw figures (Qt::UserRole), display uses the formatted text.
#include "model/incident_notes.h"
#include "analysis/figure_evidence.h"
#include "analysis/incidents.h"

#include <QAbstractTableModel>

#include <map>

namespace faultline {

// A figure the evidence supports: what the list assumes where its caller does not say.
inline FigureEvidence supportedFigure() {
    FigureEvidence e;
    e.known = true;
    return e;
}

class IncidentTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Ranks: who reported the failure and who the logs suspect, in the CLI's words (the reason in
    // its tooltip), so a hang's culprits show in the list, not only in the selected one's chain.
    enum Column { Id, Time, Cause, Hardware, Ranks, Downtime, LostWork, GpuHoursLost, Confirmed, Tags, ColumnCount };

    explicit IncidentTableModel(QObject* parent = nullptr);
    // `lostWork`: whether the run's evidence supports the lost work it records (the downtime
    // figures' rule, analysis/figure_evidence.h); where it does not, the column says "unknown"
    // with what would make it known, never "0 s" beside a tile saying "not enough to say".
    void setIncidents(std::vector<Incident> incidents, std::map<Nanos, IncidentNote> notes, std::int64_t startEpochNs,
                      FigureEvidence lostWork = supportedFigure());
    const Incident& incident(int row) const { return m_incidents.at(static_cast<std::size_t>(row)); }
    IncidentNote note(int row) const;
    void setNote(int row, const IncidentNote& note);
    int rowOfId(int id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<Incident> m_incidents;
    std::map<Nanos, IncidentNote> m_notes;
    std::int64_t m_startEpochNs = 0;
    FigureEvidence m_lostWork = supportedFigure();
};

}  // namespace faultline
