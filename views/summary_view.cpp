#include "views/summary_view.h"
#include "widgets/qt_text.h"

#include "model/format.h"
#include "analysis/summary.h"
#include "widgets/stat_tile.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace faultline {

namespace {

StatTile* makeTile(const QString& caption, const QString& objectName, QWidget* parent) {
    auto* tile = new StatTile(caption, parent);
    tile->setObjectName(objectName);
    return tile;
}

}  // namespace

SummaryView::SummaryView(QWidget* parent)
    : QWidget(parent),
      m_title(new QLabel(this)),
      m_subtitle(new QLabel(this)),
      m_highlights(new QLabel(this)),
      m_ettr(makeTile(tr("Effective training time"), "ettrTile", this)),
      m_interruptions(makeTile(tr("Interruptions"), "interruptionsTile", this)),
      m_mtbf(makeTile(tr("Mean time between failures"), "mtbfTile", this)),
      m_checkpoints(makeTile(tr("Checkpoints saved"), "checkpointsTile", this)),
      m_detection(makeTile(tr("Downtime: detection"), "detectionTile", this)),
      m_restart(makeTile(tr("Downtime: restart"), "restartTile", this)),
      m_reload(makeTile(tr("Downtime: checkpoint reload"), "reloadTile", this)),
      m_lostWork(makeTile(tr("Lost work (redone)"), "lostWorkTile", this)),
      m_causes(new QTableWidget(0, 4, this)) {
    setObjectName("summaryView");
    m_title->setObjectName("runTitle");
    m_subtitle->setObjectName("runSubtitle");
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_subtitle->setWordWrap(true);
    m_highlights->setObjectName("runHighlights");
    m_highlights->setWordWrap(true);
    m_highlights->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_causes->setObjectName("causesTable");
    m_causes->setHorizontalHeaderLabels({tr("Root cause"), tr("Component"), tr("Interruptions"), tr("Share")});
    m_causes->verticalHeader()->hide();
    m_causes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_causes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_causes->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);

    auto* tiles = new QGridLayout;
    tiles->setSpacing(8);
    StatTile* const grid[2][4] = {{m_ettr, m_interruptions, m_mtbf, m_checkpoints},
                                  {m_detection, m_restart, m_reload, m_lostWork}};
    // Two tiles a row: the dock stays narrow enough to leave the 3D view most of the window.
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 4; ++c) tiles->addWidget(grid[r][c], 2 * r + c / 2, c % 2);

    auto* causesTitle = new QLabel(tr("Root causes of unexpected interruptions"), this);
    QFont bold = causesTitle->font();
    bold.setBold(true);
    causesTitle->setFont(bold);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addWidget(m_highlights);
    layout->addSpacing(8);
    layout->addLayout(tiles);
    layout->addSpacing(8);
    layout->addWidget(causesTitle);
    layout->addWidget(m_causes, 1);
}

void SummaryView::setHighlights(const QStringList& lines) {
    QString html = "<ul style='margin-left:-20px'>";
    for (const QString& line : lines) html += "<li>" + line.toHtmlEscaped() + "</li>";
    m_highlights->setText(lines.isEmpty() ? QString() : html + "</ul>");
    m_highlights->setVisible(!lines.isEmpty());
}

QString SummaryView::highlightsText() const { return m_highlights->text(); }

void SummaryView::setSummary(const RunSummary& s) {
    m_title->setText(qtText(s.name));
    m_subtitle->setText(tr("Started %1 · ran %2 · %3 in %4, %5, %6%7 · %8")
                            .arg(qtText(formatWallTime(s.startEpochNs, 0)), qtText(formatDuration(s.duration)),
                                 qtText(formatCounted(static_cast<std::int64_t>(s.gpus), "GPU", "GPUs")),
                                 qtText(formatCounted(static_cast<std::int64_t>(s.hosts), "host", "hosts")),
                                 qtText(formatCounted(static_cast<std::int64_t>(s.racks), "rack", "racks")),
                                 qtText(formatCounted(static_cast<std::int64_t>(s.switches), "switch", "switches")),
                                 s.shape.known() ? qtText(" · job " + jobShapeText(s.shape)) : QString(), qtText(fabricOutlineText(s.fabric)))
                        + (s.untracedGpus > 0 ? qtText(" · traced GPUs: " + untracedText(s)) : QString()));

    // A figure the evidence cannot support is words, with what would make it known.
    auto noFigure = [&s](StatTile* tile, SummaryFigure f) {
        tile->setNoFigure(qtText(kNotEnoughToSay));
        tile->setDetail(qtText(whatWouldMakeItKnown(s.evidenceFor(f))));
    };
    if (s.ettrKnown) {
        m_ettr->setValue(qtText(formatPercent(s.ettr)));
        const std::string caveat = ettrCaveat(s);
        m_ettr->setDetail(caveat.empty() ? tr("of wall time spent on training that was kept") : qtText(caveat));
    } else {
        noFigure(m_ettr, SummaryFigure::Ettr);
    }
    // Counts as every other figure: 9,000, not 9000.
    auto counted = [](std::int64_t n) { return qtText(formatCount(n)); };
    m_interruptions->setValue(counted(s.planned + s.unexpected));
    m_interruptions->setDetail(s.withoutDowntime > 0 ? tr("%1 planned · %2 unexpected, %3 with no downtime shown").arg(counted(s.planned), counted(s.unexpected), counted(s.withoutDowntime))
                                                     : tr("%1 planned · %2 unexpected").arg(counted(s.planned), counted(s.unexpected)));
    if (s.known(SummaryFigure::Mtbf)) {
        m_mtbf->setValue(qtText(formatDuration(s.mtbf)));
        m_mtbf->setDetail(tr("between unexpected interruptions"));
    } else {
        noFigure(m_mtbf, SummaryFigure::Mtbf);
    }
    m_checkpoints->setValue(qtText(formatCount(s.checkpoints)));
    m_checkpoints->setDetail(s.checkpoints > 0 ? tr("mean save %1").arg(qtText(formatDuration(s.meanCheckpointSave))) : tr("no saves in the files"));

    auto setDowntime = [&s, &noFigure](StatTile* tile, Nanos value) {
        if (!s.known(SummaryFigure::DowntimeShares)) return noFigure(tile, SummaryFigure::DowntimeShares);
        tile->setValue(qtText(formatDuration(value)));
        const double share = s.duration > 0 ? static_cast<double>(value) / static_cast<double>(s.duration) : 0.0;
        tile->setDetail(tr("%1 of the run").arg(qtText(formatPercent(share, 2))));
    };
    setDowntime(m_detection, s.downtime.detection);
    setDowntime(m_restart, s.downtime.restart);
    setDowntime(m_reload, s.downtime.reload);
    setDowntime(m_lostWork, s.downtime.lostWork);

    m_causes->setRowCount(static_cast<int>(s.causes.size()));
    for (int row = 0; row < static_cast<int>(s.causes.size()); ++row) {
        const CauseCount& c = s.causes[static_cast<std::size_t>(row)];
        const RootCauseInfo& info = rootCauseInfo(c.cause);
        auto* count = new QTableWidgetItem(qtText(formatCount(c.count)));
        auto* share = new QTableWidgetItem(qtText(formatPercent(c.percent / 100.0)));
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        share->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_causes->setItem(row, 0, new QTableWidgetItem(QString::fromUtf8(info.label.data(), static_cast<qsizetype>(info.label.size()))));
        m_causes->setItem(row, 1, new QTableWidgetItem(QString::fromUtf8(info.component.data(), static_cast<qsizetype>(info.component.size()))));
        m_causes->setItem(row, 2, count);
        m_causes->setItem(row, 3, share);
    }
    m_causes->resizeColumnsToContents();
}

}  // namespace faultline
