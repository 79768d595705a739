#pragma once
// View > Viewpoints: the camera of the 3D view saved under a name in the run's review file
// (model/viewpoints.h), listed, flown to (Ctrl+1..9 for the first nine), renamed and
// deleted. Ctrl+Shift+1..9 saves the camera as viewpoint 1..9 at once: over that one when
// there is one (keeping its name), else as a new one at the end of the list.
#include <QMenu>

namespace faultline {

class FabricView;
class MainWindow;

class ViewpointMenu : public QMenu {
    Q_OBJECT
public:
    ViewpointMenu(MainWindow& window, FabricView& view);

    QStringList names() const;
    // Each returns false, and says why in message(), when it could not be done.
    bool saveAs(const QString& name);
    bool goTo(const QString& name);
    bool renameViewpoint(const QString& from, const QString& to);
    bool deleteViewpoint(const QString& name);
    bool saveSlot(int number);  // 1..9
    bool goToSlot(int number);

signals:
    void message(const QString& text);

private:
    void rebuild();
    void askAndSave();
    void askAndRename();
    void askAndDelete();
    // Runs `change` on the run's store; a failure (the review cannot be written) is told.
    template <typename Change>
    bool change(Change&& change);

    MainWindow& m_window;
    FabricView& m_view;
};

}  // namespace faultline
