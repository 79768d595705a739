#include "story_card.h"
#include "widgets/qt_text.h"

#include "model/format.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStringList>

#include <algorithm>

namespace faultline {

namespace {

const QColor kCardBackground(14, 20, 32);
const QColor kAccent(255, 196, 0);

QFont sized(int px, bool bold) {
    QFont f("DejaVu Sans");
    f.setPixelSize(std::max(10, px));
    f.setBold(bold);
    return f;
}

// The largest type, from `largest` down, in which `text` fits the box on one line; the
// smallest tried when none does (noted in `cut`, for the tests).
QFont fitted(const QString& text, const QSize& box, int largest, bool bold, QStringList* cut) {
    const int smallest = std::max(10, largest / 3);
    for (int px = largest; px >= smallest; px = px * 9 / 10) {
        const QFont font = sized(px, bold);
        const QFontMetrics metrics(font);
        if (metrics.horizontalAdvance(text) <= box.width() && metrics.height() <= box.height()) return font;
        if (px * 9 / 10 == px) break;
    }
    if (cut) *cut << text;
    return sized(smallest, bold);
}

// Big figures in a grid of three, each caption and value on one line in the type that fits.
void figureGrid(QPainter& p, const QRect& area, const std::vector<std::pair<std::string, std::string>>& figures, int unit,
                QStringList* cut) {
    const int columns = 3, gap = unit;
    const int rows = static_cast<int>((figures.size() + columns - 1) / columns);
    const int w = (area.width() - gap * (columns - 1)) / columns;
    const int h = std::min((area.height() - gap * (rows - 1)) / std::max(1, rows), unit * 7);
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const int c = static_cast<int>(i) % columns, r = static_cast<int>(i) / columns;
        const QRect box(area.left() + c * (w + gap), area.top() + r * (h + gap), w, h);
        p.fillRect(box, QColor(28, 38, 56));
        p.fillRect(QRect(box.left(), box.top(), unit / 4, box.height()), kAccent);
        const QRect caption = box.adjusted(unit, unit / 2, -unit / 2, -(box.height() - unit / 2 - unit * 3 / 2));
        const QRect valueBox = box.adjusted(unit, unit * 2, -unit / 2, -unit / 2);
        const QString label = qtText(figures[i].first), value = qtText(figures[i].second);
        p.setPen(QColor(170, 182, 200));
        p.setFont(fitted(label, caption.size(), unit * 9 / 10, false, cut));
        p.drawText(caption, Qt::AlignLeft | Qt::AlignTop, label);
        p.setPen(Qt::white);
        p.setFont(fitted(value, valueBox.size(), unit * 22 / 10, true, cut));
        p.drawText(valueBox, Qt::AlignLeft | Qt::AlignVCenter, value);
    }
}

}  // namespace

StoryCard::StoryCard(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void StoryCard::setCard(const ReportContent* content, Kind kind) {
    m_content = content;
    m_kind = kind;
    setObjectName(kind == Kind::Title ? "titleCard" : "closingCard");
    update();
}

int StoryCard::titlePixelSize() const { return height() / 12; }

void StoryCard::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.fillRect(rect(), kCardBackground);
    m_cut.clear();
    if (!m_content) return;
    const RunInfo& info = m_content->run->info;
    const RunSummary& s = m_content->summary;
    const int unit = std::max(8, height() / 40);
    const int margin = width() / 14;
    QRect area = rect().adjusted(margin, height() / 10, -margin, -height() / 12);
    p.setPen(kAccent);
    p.setFont(sized(unit, true));
    p.drawText(area, Qt::AlignLeft | Qt::AlignTop, m_kind == Kind::Title ? tr("RUN REVIEW") : tr("WHERE THE TIME WENT"));
    area.adjust(0, unit * 2, 0, 0);
    p.setPen(Qt::white);
    p.setFont(sized(titlePixelSize(), true));
    const QString title = m_kind == Kind::Title ? qtText(info.name) : s.ettrKnown ? tr("%1 effective training").arg(qtText(formatPercent(s.ettr)))
                                                                                    : tr("Effective training: %1").arg(qtText(kNotEnoughToSay));
    const QRect titleRect = p.boundingRect(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title);
    p.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title);
    area.setTop(titleRect.bottom() + unit);
    p.setPen(QColor(200, 210, 225));
    p.setFont(sized(unit * 14 / 10, false));
    QString sub;
    if (m_kind == Kind::Title) {
        sub = qtText(formatWallTime(info.startEpochNs, 0) + "  to  " + formatWallTime(info.startEpochNs, info.duration) + "  ·  " + formatDuration(info.duration));
    } else {
        QStringList causes;
        for (std::size_t i = 0; i < std::min<std::size_t>(3, s.causes.size()); ++i)
            causes << QString("%1 %2").arg(qtText(std::string(rootCauseLabel(s.causes[i].cause)))).arg(s.causes[i].count);
        sub = tr("Most frequent causes: %1").arg(causes.isEmpty() ? tr("none") : causes.join(", "));
    }
    p.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, sub);
    area.adjust(0, unit * 4, 0, 0);
    // What comes next, at the foot: the presenter's and the room's cue.
    p.setPen(QColor(130, 142, 160));
    p.setFont(sized(unit, false));
    const QRect foot(margin, height() - height() / 12, width() - 2 * margin, height() / 16);
    if (m_kind == Kind::Title) {
        figureGrid(p, area, headlineFigures(s), unit, &m_cut);
        p.setPen(QColor(130, 142, 160));
        p.setFont(sized(unit, false));
        p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter,
                   m_content->selected.size() == 1 ? tr("Next: the incident that cost the most time")
                                                   : tr("Next: the %1 incidents that cost the most time").arg(m_content->selected.size()));
        return;
    }
    p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter, tr("%1 interruptions in %2").arg(m_content->incidents.size()).arg(qtText(formatDuration(info.duration))));
    const Badput& b = s.ledger.whole.badput;
    figureGrid(p, area,
               {{"Goodput", figureOrUnknown(s, SummaryFigure::Goodput, formatPercent(s.goodput))},
                {"Interruptions", std::to_string(s.unexpected) + " unexpected"},
                {"MTBF", figureOrUnknown(s, SummaryFigure::Mtbf, formatDuration(s.mtbf))},
                {"Detection + restart", figureOrUnknown(s, SummaryFigure::DowntimeShares, formatDuration(b.detection + b.restart))},
                {"Checkpoint reload", figureOrUnknown(s, SummaryFigure::DowntimeShares, formatDuration(b.reload))},
                {"Work redone", figureOrUnknown(s, SummaryFigure::DowntimeShares, formatDuration(b.lostWork))}},
               unit, &m_cut);
}

}  // namespace faultline
