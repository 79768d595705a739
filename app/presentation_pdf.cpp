#include "presentation_pdf.h"

#include "story_card.h"
#include "analysis/blast_radius.h"
#include "analysis/opening_instant.h"
#include "exports/image_file.h"
#include "exports/offscreen_renderer.h"
#include "model/error.h"
#include "model/incident_notes.h"
#include "model/partial_file.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/incident_camera.h"

#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

namespace faultline {

namespace {

constexpr QSize kSlide(1920, 1080);  // pixels of a page: 10 x 5.625 inches at 192 dpi

// The caption's extra line, as the presentation writes it for the slide.
QString slideNote(const ReportContent& content, std::size_t i) {
    const ReportIncident& r = content.selected[i];
    QString note = QString("%1 of %2 · %3").arg(i + 1).arg(content.selected.size()).arg(QString::fromStdString(incidentTitle(r.incident)));
    if (r.note && !r.note->notes.empty())
        note += " · Reviewer: " + QString::fromStdString(noteExcerpt(r.note->notes, 1000)).section('\n', 0, 0);
    return note;
}

}  // namespace

int writePresentationPdf(const ReportContent& content, const QString& path) {
    int pages = 0;
    writeThroughPartial(path.toStdString(), [&](const std::string& partialPath) {
        writeRenderedFile(partialPath, [&](QIODevice& device) {
            QPdfWriter pdf(&device);
            pdf.setTitle(QString("%1 — Faultline presentation").arg(QString::fromStdString(content.run->info.name)));
            pdf.setCreator("Faultline");
            pdf.setResolution(192);
            // A 16:9 page (10 x 5.625 inches), edge to edge as a slide is.
            pdf.setPageSize(QPageSize(QSizeF(142.875, 254.0), QPageSize::Millimeter, "16:9 slide"));
            pdf.setPageOrientation(QPageLayout::Landscape);
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            QPainter painter;
            if (!painter.begin(&pdf)) throw Error(path.toStdString() + ": cannot write");
            const QRect page = painter.viewport();
            auto newPage = [&] {
                if (pages++ > 0) pdf.newPage();
            };
            auto card = [&](StoryCard::Kind kind) {
                newPage();
                StoryCard slide;
                slide.setCard(&content, kind);
                slide.resize(kSlide);
                // Drawn as vectors: its text stays text in the PDF.
                painter.save();
                painter.scale(static_cast<double>(page.width()) / kSlide.width(), static_cast<double>(page.height()) / kSlide.height());
                slide.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
                painter.restore();
            };
            card(StoryCard::Kind::Title);
            if (!content.selected.empty()) {
                OffscreenRenderer renderer(content.run, kSlide);
                renderer.setFlashSpan(2 * kMinute);
                renderer.setCalloutSpan(2 * kMinute);  // the failed part ringed and named
                for (std::size_t i = 0; i < content.selected.size(); ++i) {
                    const Incident& incident = content.selected[i].incident;
                    showIncident(renderer.view(), failedPart(*content.run, incident), incident.gpus, suspectGpus(*content.run, incident)).aim();
                    renderer.setNote(slideNote(content, i));
                    newPage();
                    painter.drawImage(page, renderer.render(incidentSnapshotInstant(incident, content.run->info.duration)));
                }
            }
            card(StoryCard::Kind::Closing);
            painter.end();
        });
    });
    return pages;
}

}  // namespace faultline
