#include "exports/run_caption.h"

#include "model/format.h"

#include <QFont>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace faultline {

namespace {

QString phaseText(const Run& run, const JobStatus& job) {
    const auto causeOf = [&]() -> QString {
        if (job.failure < 0) return QString();
        const Failure& f = run.failures[static_cast<std::size_t>(job.failure)];
        return QString::fromUtf8(rootCauseLabel(f.cause).data(), static_cast<int>(rootCauseLabel(f.cause).size()));
    };
    switch (job.phase) {
        case JobPhase::Training: return QString("Training · step %1").arg(QString::fromStdString(formatCount(job.step)));
        case JobPhase::SavingCheckpoint: return QString("Saving a checkpoint · step %1").arg(QString::fromStdString(formatCount(job.step)));
        case JobPhase::Stopped:
            return job.failure >= 0 ? QString("Job stopped: %1 · not yet detected").arg(causeOf())
                                    : QString("Stopped for planned maintenance");
        case JobPhase::Restarting:
            return job.failure >= 0 ? QString("Down: %1 · restarting the job").arg(causeOf()) : QString("Planned maintenance · restarting");
        case JobPhase::LoadingCheckpoint: return QString("Reloading the last checkpoint");
    }
    return {};
}

}  // namespace

EttrSoFar::EttrSoFar(const Run& run) {
    const Nanos duration = std::max<Nanos>(0, run.info.duration);
    m_period = std::max<Nanos>(kSecond, (duration + 19'999) / 20'000);
    const GoodputLedger ledger = computeGoodput(run, m_period);
    if (!ledger.timeAccounted) return;
    double kept = 0;
    for (const GoodputPeriod& p : ledger.days) {
        m_keptBefore.push_back(kept);
        m_ettr.push_back(p.ettr());
        kept += p.ettr() * static_cast<double>(p.end - p.begin);
    }
}

std::optional<double> EttrSoFar::at(Nanos t) const {
    if (m_ettr.empty()) return std::nullopt;
    if (t <= 0) return m_ettr.front();
    const std::size_t k = std::min(m_ettr.size() - 1, static_cast<std::size_t>(t / m_period));
    const Nanos into = std::min(t - static_cast<Nanos>(k) * m_period, m_period);
    const double kept = m_keptBefore[k] + m_ettr[k] * static_cast<double>(into);
    return kept / static_cast<double>(static_cast<Nanos>(k) * m_period + into);
}

RunCaption captionAt(const Run& run, const ReplayIndex& replay, const EttrSoFar& ettr, Nanos t) {
    RunCaption c;
    c.run = QString::fromStdString(run.info.name);
    const Nanos day = t / kDay;
    c.when = QString("%1 · day %2, %3 into the run")
                 .arg(QString::fromStdString(formatWallTime(run.info.startEpochNs, t)))
                 .arg(day + 1)
                 .arg(QString::fromStdString(formatDuration(t)));
    if (const std::optional<double> e = ettr.at(t)) c.ettr = QString("ETTR so far %1").arg(QString::fromStdString(formatPercent(*e)));
    c.now = phaseText(run, replay.jobAt(t));
    return c;
}

int captionHeight(int imageHeight) { return std::max(56, imageHeight * 9 / 100); }

int slideCaptionHeight(int imageHeight) { return captionHeight(imageHeight) * 2; }

void paintCaption(QPainter& p, const QRect& rect, const RunCaption& c) {
    p.save();
    p.fillRect(rect, QColor(12, 16, 24, 235));
    p.setPen(QColor(255, 196, 0));
    p.drawLine(rect.topLeft(), rect.topRight());
    const int rows = c.note.isEmpty() ? 2 : 3;
    const int line = rect.height() / rows;
    const int margin = std::max(8, rect.height() / 5);
    QFont big("DejaVu Sans");
    big.setPixelSize(std::max(12, line * 55 / 100));
    big.setBold(true);
    QFont small = big;
    small.setBold(false);
    small.setPixelSize(std::max(10, line * 45 / 100));
    const QRect top(rect.left() + margin, rect.top(), rect.width() - 2 * margin, line);
    const QRect second = top.translated(0, line);
    p.setFont(big);
    p.setPen(Qt::white);
    {
        // The top line's left part ends short of the ETTR on its right.
        const QFontMetrics fm(big);
        const int room = top.width() - fm.horizontalAdvance(c.ettr) - fm.horizontalAdvance("  ");
        QString left = c.run;
        if (!c.where.isEmpty()) {
            left = c.run + " · " + c.where;
            if (fm.horizontalAdvance(left) > room) left = c.where;
        }
        p.drawText(top, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(left, Qt::ElideRight, std::max(0, room)));
    }
    p.setPen(QColor(255, 196, 0));
    p.drawText(top, Qt::AlignRight | Qt::AlignVCenter, c.ettr);
    p.setFont(small);
    p.setPen(QColor(220, 226, 235));
    p.drawText(second, Qt::AlignLeft | Qt::AlignVCenter, c.when);
    p.setPen(Qt::white);
    p.drawText(second, Qt::AlignRight | Qt::AlignVCenter, c.now);
    if (!c.note.isEmpty()) {
        p.setPen(QColor(200, 210, 225));
        const QFontMetrics fm(small);
        p.drawText(second.translated(0, line), Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(c.note, Qt::ElideRight, second.width()));
    }
    p.restore();
}

}  // namespace faultline
