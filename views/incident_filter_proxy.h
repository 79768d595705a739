#pragma once
// The incident list as filtered: by the text typed (any column) and by one root cause (a
// click on its bar in the charts).
#include "model/root_cause.h"

#include <QSortFilterProxyModel>

#include <optional>

namespace faultline {

class IncidentFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setCause(std::optional<RootCause> cause);
    std::optional<RootCause> cause() const { return m_cause; }
    // Planned work alone (true), unexpected interruptions alone (false), or both (nullopt).
    void setPlanned(std::optional<bool> planned);
    std::optional<bool> planned() const { return m_planned; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    // What the model does not know (an invalid sort value: a recovery the run does not show
    // ending) sorts last, ascending or descending: the worst known incident comes first.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::optional<RootCause> m_cause;
    std::optional<bool> m_planned;
};

}  // namespace faultline
