#pragma once
// The incidents of a run as table rows, with the reviewer's notes beside them. Sorting uses
// the raw figures (Qt::UserRole), display uses the formatted text.
#include "model/incident_notes.h"
#include "analysis/incidents.h"

#include <QAbstractTableModel>

#include <map>

namespace faultline {

class IncidentTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Time, Cause, Hardware, Downtime, LostWork, GpuHoursLost, Confirmed, Tags, ColumnCount };

    explicit IncidentTableModel(QObject* parent = nullptr);
    void setIncidents(std::vector<Incident> incidents, std::map<Nanos, IncidentNote> notes, std::int64_t startEpochNs);
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
};

}  // namespace faultline
