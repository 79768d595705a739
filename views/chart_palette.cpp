#include "views/chart_palette.h"

#include <QEvent>
#include <QPalette>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>

namespace faultline {

namespace {

// Each setter repaints the chart: set only what differs, so that painting settles.
template <typename Get, typename Set, typename Value>
void setIfDifferent(Get get, Set set, const Value& wanted) {
    if (get() != wanted) set(wanted);
}

class PaletteFollower : public QObject {
public:
    explicit PaletteFollower(QChartView* view) : QObject(view), m_view(view) {
        view->installEventFilter(this);
        view->viewport()->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        const bool paletteChanged = watched == m_view && event->type() == QEvent::PaletteChange;
        const bool painting = watched == m_view->viewport() && event->type() == QEvent::Paint;
        if ((paletteChanged || painting) && m_view->chart()) applyPaletteToChart(m_view->chart(), m_view->palette());
        return false;
    }

private:
    QChartView* m_view;
};

}  // namespace

void applyPaletteToChart(QChart* chart, const QPalette& palette) {
    const QColor background = palette.color(QPalette::Base), text = palette.color(QPalette::Text), grid = palette.color(QPalette::Mid);
    setIfDifferent([&] { return chart->backgroundBrush(); }, [&](const QBrush& b) { chart->setBackgroundBrush(b); }, QBrush(background));
    setIfDifferent([&] { return chart->titleBrush(); }, [&](const QBrush& b) { chart->setTitleBrush(b); }, QBrush(text));
    setIfDifferent([&] { return chart->legend()->labelColor(); }, [&](const QColor& c) { chart->legend()->setLabelColor(c); }, text);
    for (QAbstractAxis* axis : chart->axes()) {
        setIfDifferent([&] { return axis->labelsBrush(); }, [&](const QBrush& b) { axis->setLabelsBrush(b); }, QBrush(text));
        setIfDifferent([&] { return axis->titleBrush(); }, [&](const QBrush& b) { axis->setTitleBrush(b); }, QBrush(text));
        setIfDifferent([&] { return axis->gridLineColor(); }, [&](const QColor& c) { axis->setGridLineColor(c); }, grid);
        setIfDifferent([&] { return axis->linePenColor(); }, [&](const QColor& c) { axis->setLinePenColor(c); }, grid);
    }
}

void followAppPalette(QChartView* view) {
    applyPaletteToChart(view->chart(), view->palette());
    new PaletteFollower(view);
}

}  // namespace faultline
