// `faultline --report OUT.pdf|OUT.html [--incidents N] [--page a4|letter] RUN`, like
// --screenshot: no window, the run's report written and the process done.
#include "exports/report_writer.h"

#include "model/incident_notes.h"
#include "views/fabric/job_colouring.h"
#include "views/run_loader.h"

#include <QElapsedTimer>

#include <cstdio>

namespace faultline {

int writeReportHeadless(const QString& path, const ReportOptions& options) {
    QElapsedTimer timer;
    timer.start();
    try {
        const std::shared_ptr<const LoadedRun> loaded = loadRun(path);
        const std::shared_ptr<const Run> run(loaded, &loaded->run);
        ReportContent content = buildReportContent(run, readIncidentNotes(path.toStdString()), options.incidents, &loaded->stragglers);
        if (!options.colourBy.isEmpty()) content.colourBy = colourByNamed(*run, options.colourBy.toStdString());
        ReportFigures figures;
        renderReportFigures(content, figures);
        if (isHtmlReport(options.out)) {
            writeHtmlReport(content, figures, options);
            std::printf("wrote %s: %zu incident sections in %.1f s\n", qPrintable(options.out), content.selected.size(),
                        static_cast<double>(timer.elapsed()) / 1000.0);
        } else {
            const int pages = writePdfReport(content, figures, options);
            std::printf("wrote %s: %d pages, %zu incident sections in %.1f s\n", qPrintable(options.out), pages,
                        content.selected.size(), static_cast<double>(timer.elapsed()) / 1000.0);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        return 1;
    }
}

}  // namespace faultline
