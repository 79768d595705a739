#pragma once
// File > Export Presentation as PDF... and `faultline --presentation OUT.pdf RUN`: the slides
// of View > Present as a PDF to hand out, one 16:9 page per slide: the title card, each
// incident's picture (framed as the presentation flies to it, just after its first symptom,
// with its caption), the closing figures.
#include "exports/report_content.h"

#include <QString>

namespace faultline {

// Writes the PDF through the output guard (a partial file renamed when whole); throws Error.
// Returns the pages written.
int writePresentationPdf(const ReportContent& content, const QString& path);

}  // namespace faultline
