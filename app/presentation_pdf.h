#pragma once
// File > Export Presentation as PDF... and `faultline --presentation OUT.pdf RUN`: the slides
// of View > Present as a PDF to hand out, one 16:9 page per slide: the title card, each
// incident's picture (framed as the presentation flies to it, just after its first symptom,
// with its caption), the closing figures.
#include "exports/offscreen_renderer.h"
#include "exports/report_content.h"

#include <QImage>
#include <QString>

namespace faultline {

// The incident slides' pictures as the PDF has them: each incident framed as the presentation
// flies to it, just after its first symptom, at a slide's 1920x1080, with the presentation
// window's caption strip (its type, and the incident's rank and cost on its third line).
class IncidentSlides {
public:
    explicit IncidentSlides(const ReportContent& content);
    // The picture of content.selected[i].
    QImage render(std::size_t i);
    int captionHeight() const { return m_renderer.captionStripHeight(); }
    // The caption's third line of content.selected[i]: "2 of 5 · Incident 8 · ... · cost 15 min".
    QString note(std::size_t i) const;
    // Where content.selected[i]'s hardware stands, on the caption's top line after the run's
    // name: in a fleet its building, hall, cluster, zone, row and rack (analysis/part_place.h).
    QString where(std::size_t i) const;
    // The 3D view the pictures are taken of, as the last render left it.
    FabricView& view() { return m_renderer.view(); }

private:
    const ReportContent& m_content;
    OffscreenRenderer m_renderer;
};

// Writes the PDF through the output guard (a partial file renamed when whole); throws Error.
// Returns the pages written.
int writePresentationPdf(const ReportContent& content, const QString& path);

}  // namespace faultline
