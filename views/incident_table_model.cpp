#include "views/incident_table_model.h"
#include "widgets/qt_text.h"

#include "model/format.h"

namespace faultline {

IncidentTableModel::IncidentTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void IncidentTableModel::setIncidents(std::vector<Incident> incidents, std::map<Nanos, IncidentNote> notes, std::int64_t startEpochNs,
                                      FigureEvidence lostWork) {
    beginResetModel();
    m_lostWork = std::move(lostWork);
    m_incidents = std::move(incidents);
    m_notes = std::move(notes);
    m_startEpochNs = startEpochNs;
    endResetModel();
}

IncidentNote IncidentTableModel::note(int row) const {
    const Nanos begin = incident(row).begin;
    auto it = m_notes.find(begin);
    if (it != m_notes.end()) return it->second;
    IncidentNote n;
    n.incidentBegin = begin;
    return n;
}

void IncidentTableModel::setNote(int row, const IncidentNote& note) {
    m_notes[note.incidentBegin] = note;
    emit dataChanged(index(row, Confirmed), index(row, Tags));
}

int IncidentTableModel::rowOfId(int id) const {
    for (std::size_t i = 0; i < m_incidents.size(); ++i)
        if (m_incidents[i].id == id) return static_cast<int>(i);
    return -1;
}

int IncidentTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_incidents.size()); }
int IncidentTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IncidentTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Incident& inc = incident(index.row());
    // By reference: a cell is asked for many times a paint, and a note may be megabytes.
    static const IncidentNote kNone;
    const auto found = m_notes.find(inc.begin);
    const IncidentNote& n = found != m_notes.end() ? found->second : kNone;
    if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Downtime || index.column() == LostWork))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole) {  // what sorting compares
        switch (index.column()) {
            case Id: return inc.id;
            case Time: return QVariant::fromValue<qlonglong>(inc.begin);
            // Unknowns are an invalid value: the proxy sorts them last, whichever way.
            case Downtime: return inc.end ? QVariant::fromValue<qlonglong>(inc.timeToRecover) : QVariant();
            case LostWork: return m_lostWork.known ? QVariant::fromValue<qlonglong>(inc.lostWork) : QVariant();
            case GpuHoursLost: return inc.gpuHoursLost ? QVariant(*inc.gpuHoursLost) : QVariant();
            default: break;
        }
        role = Qt::DisplayRole;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (index.column() == Ranks)
        return QString::fromStdString(ranksOfFailureText(inc.reportingRanks, inc.suspectRanks, role == Qt::ToolTipRole ? inc.suspectReason : std::string()));
    if (index.column() == LostWork && !m_lostWork.known)
        return role == Qt::ToolTipRole ? QString::fromStdString(unknownFigureText(m_lostWork)) : QString("unknown");
    switch (index.column()) {
        case Id: return inc.id;
        case Time: return QString::fromStdString(formatWallTime(m_startEpochNs, inc.begin));
        case Cause: return qtText(inc.causeLabel) + (inc.xid ? QString(" (Xid %1)").arg(inc.xid) : QString());
        case Hardware: return QString::fromStdString(inc.hardware);
        case Downtime: return inc.end ? QString::fromStdString(formatDuration(inc.timeToRecover)) : QString("-");
        case LostWork: return QString::fromStdString(formatDuration(inc.lostWork));
        case GpuHoursLost: return QString::fromStdString(gpuHoursText(inc.gpuHoursLost));
        case Confirmed: return n.confirmedCause ? qtText(rootCauseLabel(*n.confirmedCause)) : QString();
        case Tags: return QString::fromStdString(joinTags(n.tags));
        default: return {};
    }
}

QVariant IncidentTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* kHeaders[] = {"#", "Time", "Cause", "Hardware", "Ranks", "To recover", "Lost work", "GPU-h lost", "Confirmed cause", "Tags"};
    return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

}  // namespace faultline
