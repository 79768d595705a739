#pragma once
// File > Export Report / Export Video / Export Picture / Copy Picture / Export Data in the
// app: asks where and how, then runs the same writers as the command line. Documents are
// written and data exported off the GUI thread; the parts that must run on it (charts are
// widgets, the 3D view needs OpenGL) go a figure or frame at a time with the event loop
// running between, behind a progress dialog with Cancel, so the window never freezes.
#include "exports/report_writer.h"
#include "exports/video_recorder.h"

#include <QObject>
#include <QSize>

class QMenu;
class QWidget;

namespace faultline {

class MainWindow;

class ExportController : public QObject {
    Q_OBJECT
public:
    explicit ExportController(MainWindow* window);
    // Adds the export actions to the File menu.
    void addActions(QMenu* file);

    // The panels pictures can be made of, by objectName, with the names the menus show.
    static QList<std::pair<QString, QString>> pictureablePanels();

    void exportReport();
    void exportPresentation();
    void exportVideo();
    void exportPicture(const QString& panelName);
    void copyPicture(const QString& panelName);
    void exportCsv();
    void exportPerfetto();
    // The same without asking: `message` says when each is done (or failed, or cancelled).
    void exportReportTo(const ReportOptions& options);
    // The presentation's slides, its `incidents` worst incidents, one PDF page each.
    void exportPresentationTo(const QString& out, int incidents = 5);
    void exportVideoTo(const VideoOptions& options);
    void exportCsvTo(const QString& dir);
    void exportPerfettoTo(const QString& out);

signals:
    // A status line when an export finished or failed.
    void message(const QString& text);

private:
    QWidget* panel(const QString& name) const;
    // Whether `out` may not be written (the run shown is never overwritten, nor a FIFO or a
    // device; the file dialog has asked before replacing anything else): says why if so.
    bool refused(const QString& out);
    bool haveRun();
    MainWindow* m_window;
};

}  // namespace faultline
