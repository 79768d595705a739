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

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::optional<RootCause> m_cause;
};

}  // namespace faultline
