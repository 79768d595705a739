#include "exports/report_writer.h"
#include "widgets/qt_text.h"

#include "model/partial_file.h"

#include "exports/csv_export.h"
#include "model/error.h"
#include "model/format.h"
#include "exports/image_file.h"
#include "exports/pdf_layout.h"
#include "exports/power_swings.h"

#include <QFileInfo>

namespace faultline {

namespace {

std::vector<std::pair<QString, QString>> qPairs(const std::vector<std::pair<std::string, std::string>>& in) {
    std::vector<std::pair<QString, QString>> out;
    for (const auto& [k, v] : in) out.emplace_back(qtText(k), qtText(v));
    return out;
}

QString hours(Nanos t) { return QString::number(toSeconds(t) / 3600.0, 'f', 1); }

void ledgerSection(PdfLayout& pdf, const RunSummary& s) {
    pdf.heading("Where the time went", 2);
    // Shares of the run need what ETTR needs: below it the reason, not a table of them.
    if (!s.ettrKnown) {
        pdf.paragraph(qtText(unknownFigureText(s.evidenceFor(SummaryFigure::Ettr))), QColor(60, 60, 60));
        return;
    }
    const GoodputPeriod& w = s.ledger.whole;
    const double span = static_cast<double>(std::max<Nanos>(1, w.end - w.begin));
    auto row = [&](const QString& what, Nanos t) {
        return QStringList{what, hours(t), qtText(formatPercent(static_cast<double>(t) / span))};
    };
    const Badput& b = w.badput;
    pdf.table({"", "Hours", "Share"},
              {row("Productive training", w.productive), row("Straggler slowdown", b.stragglerSlowdown),
               row("Checkpoint saves", b.checkpointSave), row("Failure detection", b.detection), row("Restart", b.restart),
               row("Checkpoint reload", b.reload), row("Lost work (redone)", b.lostWork), row("Planned maintenance", b.planned),
               row("Whole run", w.end - w.begin)},
              {0.5, 0.25, 0.25}, {false, true, true});
}

void causesSection(PdfLayout& pdf, const ReportContent& c) {
    pdf.heading("Root causes of unexpected interruptions", 2);
    std::vector<QStringList> rows;
    for (const CauseCount& cc : c.summary.causes) {
        Nanos down = 0;
        for (const Incident& inc : c.incidents)
            if (!inc.planned && inc.cause == cc.cause) down += incidentCost(inc);
        rows.push_back({qtText(rootCauseLabel(cc.cause)), QString::number(cc.count), QString::number(cc.percent, 'f', 1) + "%", hours(down)});
    }
    if (rows.empty()) pdf.paragraph("No unexpected interruptions.");
    else pdf.table({"Root cause", "Count", "Share", "Hours lost"}, rows, {0.49, 0.15, 0.16, 0.2}, {false, true, true, true});
}

void powerSection(PdfLayout& pdf, const ReportContent& c) {
    const auto facts = qPairs(powerFacts(c.power));
    std::vector<QStringList> rows;
    for (const auto& r : powerSwingRows(c.power, c.run->info)) {
        QStringList row;
        for (const std::string& cell : r) row << qtText(cell);
        rows.push_back(row);
    }
    QStringList header;
    for (const std::string& h : powerSwingHeader()) header << qtText(h);
    const std::vector<double> widths{0.3, 0.08, 0.22, 0.12, 0.28};
    // The section whole on the next page rather than its table alone there, under no heading.
    const int height = pdf.headingHeight("Cluster power", 2) + pdf.factsHeight(facts) +
                       (rows.empty() ? pdf.paragraphHeight(kNoPowerSwings) : pdf.tableHeight(header, rows, widths));
    if (height > pdf.spaceLeft() && height <= pdf.pageHeight()) pdf.newPage();
    pdf.heading("Cluster power", 2);
    pdf.facts(facts);
    if (rows.empty()) pdf.paragraph(kNoPowerSwings);
    else pdf.table(header, rows, widths, {false, true, true, true, false});
}

// Only when the run has traced collectives with a late rank.
void lateRanksSection(PdfLayout& pdf, const ReportContent& c) {
    const auto rows = lateRankRows(c.stragglers, *c.run);
    if (rows.empty()) return;
    pdf.heading("Late ranks in the traced collectives", 2);
    std::vector<QStringList> cells;
    for (const auto& r : rows) {
        QStringList row;
        for (const std::string& cell : r) row << qtText(cell);
        cells.push_back(row);
    }
    QStringList header;
    for (const std::string& h : lateRankHeader()) header << qtText(h);
    pdf.table(header, cells, {0.08, 0.22, 0.12, 0.14, 0.44}, {true, false, true, true, false});
}

constexpr int kSnapshotHeight = 200;  // the hardware at the failure, beside its facts

void incidentSection(PdfLayout& pdf, const ReportContent& c, const ReportIncident& r, const QImage& snapshot, int rank) {
    const Incident& inc = r.incident;
    const QString title = QString("#%1 · %2").arg(rank).arg(qtText(incidentTitle(inc)));
    const auto facts = qPairs(incidentFacts(inc, c.run->info));
    const QStringList chainHeader{"When (UTC)", "Since symptom", "What happened"};
    const std::vector<double> chainWidths{0.25, 0.16, 0.59};
    std::vector<QStringList> chain;
    for (const IncidentEvent& e : inc.chain)
        chain.push_back({qtText(formatWallTime(c.run->info.startEpochNs, e.time)), qtText(sinceSymptom(e.time - inc.begin)), qtText(e.what)});
    // Pages filled: a section goes on under the one before (two a page where they fit) and
    // opens a page of its own only when it would not fit in what is left.
    constexpr int kGap = 20;
    const int height = pdf.headingHeight(title) + pdf.paragraphHeight(qtText(inc.headline)) +
                       pdf.factsBesideHeight(facts, snapshot, kSnapshotHeight) + pdf.headingHeight("Chain of events", 2) +
                       pdf.tableHeight(chainHeader, chain, chainWidths) + pdf.paragraphHeight(kNotReviewedYet);
    if (height + kGap > pdf.spaceLeft()) pdf.newPage();
    else pdf.skip(kGap);
    pdf.heading(title);
    pdf.paragraph(qtText(inc.headline), QColor(60, 60, 60), 13);
    pdf.factsBeside(facts, snapshot, kSnapshotHeight);
    pdf.heading("Chain of events", 2);
    pdf.table(chainHeader, chain, chainWidths);
    if (!r.note) {
        pdf.paragraph(kNotReviewedYet, QColor(120, 120, 120));
        return;
    }
    pdf.heading("Review", 2);
    std::vector<std::pair<QString, QString>> review;
    review.emplace_back("Confirmed cause", r.note->confirmedCause ? qtText(rootCauseLabel(*r.note->confirmedCause)) : "not confirmed");
    review.emplace_back("Tags", r.note->tags.empty() ? "none" : qtText(joinTags(r.note->tags)));
    pdf.facts(review);
    if (!r.note->notes.empty()) pdf.paragraph(qtText(noteExcerpt(r.note->notes, 4000)));
}

}  // namespace

bool isHtmlReport(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "html" || suffix == "htm";
}

namespace {

// The report's pages into the PDF written to `device`; returns how many.
int writePdfPages(const ReportContent& c, const ReportFigures& figures, const ReportOptions& options, QIODevice& device) {
    const RunInfo& info = c.run->info;
    PdfLayout pdf(&device, options.page, qtText("Run review: " + info.name), qtText("Faultline · " + info.name + " · generated " + formatWallTime(c.generatedEpochNs, 0)));
    if (!pdf.ok()) throw Error(options.out.toStdString() + ": cannot write");

    pdf.title(qtText("Run review: " + info.name),
              qtText(formatWallTime(info.startEpochNs, 0) + " to " + formatWallTime(info.startEpochNs, info.duration) + " · " +
                formatDuration(info.duration) + "\n" + info.source));
    pdf.tiles(qPairs(headlineFigures(c.summary)));
    for (const std::string& note : unknownFigureNotes(c.summary)) pdf.paragraph(qtText(note), QColor(60, 60, 60));
    pdf.paragraph(QString("This report covers %1 interruptions; the %2 that cost the most time (time to recover plus work "
                          "redone) each have a section of their own.%3")
                      .arg(c.incidents.size())
                      .arg(c.selected.size())
                      .arg(ettrCaveat(c.summary).empty() ? QString() : qtText(" ETTR is " + formatPercent(c.summary.ettr) + ", " + ettrCaveat(c.summary) + ".")),
                  QColor(60, 60, 60));

    pdf.newPage();
    pdf.heading("Headline figures and the goodput ledger");
    pdf.facts(qPairs(headlineFigures(c.summary)));
    ledgerSection(pdf, c.summary);
    causesSection(pdf, c);
    lateRanksSection(pdf, c);
    powerSection(pdf, c);

    pdf.newPage();
    pdf.heading("Charts");
    for (const ReportFigure& f : figures.charts) pdf.picture(f.picture, f.size, f.title);

    if (!c.selected.empty()) {
        pdf.newPage();
        pdf.heading("Incidents by downtime");
        std::vector<QStringList> rows;
        for (const ReportIncident& r : c.selected)
            rows.push_back({QString::number(r.incident.id), qtText(formatWallTime(info.startEpochNs, r.incident.begin)),
                            qtText(r.incident.causeLabel), qtText(r.incident.hardware), qtText(formatDuration(incidentCost(r.incident)))});
        pdf.table({"#", "First symptom (UTC)", "Root cause", "Hardware", "Downtime"}, rows, {0.06, 0.27, 0.2, 0.32, 0.15},
                  {true, false, false, false, true});
        pdf.paragraph(qtText(snapshotCaption(c)), QColor(90, 90, 90), 12);
    }
    for (std::size_t i = 0; i < c.selected.size(); ++i)
        incidentSection(pdf, c, c.selected[i], i < figures.snapshots.size() ? figures.snapshots[i] : QImage(), static_cast<int>(i + 1));

    pdf.newPage();
    pdf.heading("Goodput ledger per day");
    std::vector<QStringList> days;
    int day = 1;
    for (const GoodputPeriod& p : c.summary.ledger.days)
        days.push_back({QString::number(day++), qtText(formatWallTime(info.startEpochNs, p.begin)).left(10),
                        c.summary.ledger.timeAccounted ? qtText(formatPercent(p.ettr())) : "-", hours(p.productive),
                        hours(p.badput.detection + p.badput.restart + p.badput.reload), hours(p.badput.lostWork),
                        hours(p.badput.checkpointSave), hours(p.badput.planned)});
    pdf.table({"Day", "Date", "ETTR", "Productive h", "Down h", "Lost work h", "Ckpt save h", "Planned h"}, days,
              {0.07, 0.17, 0.11, 0.13, 0.12, 0.14, 0.13, 0.13}, {true, false, true, true, true, true, true, true});
    return pdf.finish();
}

}  // namespace

int writePdfReport(const ReportContent& c, const ReportFigures& figures, const ReportOptions& options) {
    int pages = 0;
    writeThroughPartial(options.out.toStdString(), [&](const std::string& partial) {
        writeRenderedFile(partial, [&](QIODevice& device) { pages = writePdfPages(c, figures, options, device); });
    });
    return pages;
}

}  // namespace faultline
