#include "incident_filter_proxy.h"

#include "incident_table_model.h"

namespace faultline {

void IncidentFilterProxy::setCause(std::optional<RootCause> cause) {
    m_cause = cause;
    invalidateFilter();
}

bool IncidentFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_cause) {
        const auto* model = qobject_cast<const IncidentTableModel*>(sourceModel());
        if (model) {
            const Incident& incident = model->incident(sourceRow);
            if (incident.planned || incident.cause != *m_cause) return false;
        }
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace faultline
