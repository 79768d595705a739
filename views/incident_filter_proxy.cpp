#include "views/incident_filter_proxy.h"

#include "views/incident_table_model.h"

namespace faultline {

void IncidentFilterProxy::setCause(std::optional<RootCause> cause) {
    m_cause = cause;
    invalidateFilter();
}

void IncidentFilterProxy::setPlanned(std::optional<bool> planned) {
    m_planned = planned;
    invalidateFilter();
}

bool IncidentFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (const auto* model = qobject_cast<const IncidentTableModel*>(sourceModel())) {
        const Incident& incident = model->incident(sourceRow);
        if (m_cause && (incident.planned || incident.cause != *m_cause)) return false;
        if (m_planned && incident.planned != *m_planned) return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

bool IncidentFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const bool leftKnown = left.data(sortRole()).isValid(), rightKnown = right.data(sortRole()).isValid();
    // Qt reverses the comparison for a descending sort: an unknown must be "less" there to end last.
    if (leftKnown != rightKnown) return leftKnown == (sortOrder() == Qt::AscendingOrder);
    return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace faultline
