#pragma once
// View > Colour By: the 3D view's GPUs coloured by their state (the default) or by any metric
// the open run's telemetry holds, one checkable entry each under its human name ("Power (W)"),
// and by Job where the run has jobs. Only State, disabled, when the run has neither; a new
// run starts again at State.
#include <QMenu>

namespace faultline {

class FabricView;
struct Run;

class ColourByMenu : public QMenu {
    Q_OBJECT
public:
    ColourByMenu(FabricView& view, QWidget* parent = nullptr);

    // Lists the run's metrics (none for nullptr).
    void setRun(const Run* run);
    // The entries' texts, in menu order ("State" first).
    QStringList entries() const;
    // Chooses the entry with this text; false when there is none.
    bool choose(const QString& text);

private:
    void showChoice();

    FabricView& m_view;
    QActionGroup* m_group;
};

}  // namespace faultline
