#include "presentation_pdf.h"

#include "story_card.h"
#include "analysis/blast_radius.h"
#include "analysis/opening_instant.h"
#include "analysis/part_place.h"
#include "exports/image_file.h"
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
}  // namespace

IncidentSlides::IncidentSlides(const ReportContent& content) : m_content(content), m_renderer(content.run, kSlide) {
    m_renderer.setFlashSpan(2 * kMinute);
    // As the presentation window draws it: its caption strip's type, and the failed part
    // named by the 3D view's own label (a video's callout ring there covered the label).
    m_renderer.setCaptionHeight(slideCaptionHeight(kSlide.height()));
}

QImage IncidentSlides::render(std::size_t i) {
    const Incident& incident = m_content.selected[i].incident;
    showIncident(m_renderer.view(), failedPart(*m_content.run, incident), incident.gpus, suspectGpus(*m_content.run, incident)).aim();
    m_renderer.setNote(note(i));
    m_renderer.setWhere(where(i));
    return m_renderer.render(incidentSnapshotInstant(incident, m_content.run->info.duration));
}

QString IncidentSlides::note(std::size_t i) const {
    const ReportIncident& r = m_content.selected[i];
    // The slides are "the incidents that cost the most time": each says what it cost.
    QString note = QString("%1 of %2 · %3 · %4")
                       .arg(i + 1)
                       .arg(m_content.selected.size())
                       .arg(QString::fromStdString(incidentTitle(r.incident)), QString::fromStdString(incidentCostText(r.incident)));
    if (r.note && !r.note->notes.empty())
        note += " · Reviewer: " + QString::fromStdString(noteExcerpt(r.note->notes, 1000)).section('\n', 0, 0);
    return note;
}

QString IncidentSlides::where(std::size_t i) const {
    return QString::fromStdString(incidentPlace(*m_content.run, m_content.selected[i].incident));
}

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
                IncidentSlides slides(content);
                for (std::size_t i = 0; i < content.selected.size(); ++i) {
                    newPage();
                    painter.drawImage(page, slides.render(i));
                }
            }
            card(StoryCard::Kind::Closing);
            painter.end();
        });
    });
    return pages;
}

}  // namespace faultline
