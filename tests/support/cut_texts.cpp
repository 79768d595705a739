#include "cut_texts.h"

#include "widgets/stat_tile.h"

#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QtCharts/QChartView>

namespace faultline::test {

QStringList cutTexts(const QWidget& window) {
    QStringList cut;
    for (const QChartView* chart : window.findChildren<QChartView*>()) {
        if (!chart->isVisible()) continue;  // scrolled out of sight still counts: the user scrolls to it
        for (const QGraphicsItem* item : chart->scene()->items()) {
            if (!item->isVisible()) continue;
            QString text;
            if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item)) text = t->toPlainText();
            else if (const auto* st = dynamic_cast<const QGraphicsSimpleTextItem*>(item)) text = st->text();
            if (text.contains("...") || text.contains(QChar(0x2026))) cut << chart->objectName() + ": " + text;
        }
    }
    for (const StatTile* tile : window.findChildren<StatTile*>()) {
        if (!tile->isVisible() || tile->visibleRegion().isEmpty()) continue;
        for (const QLabel* label : tile->findChildren<QLabel*>()) {
            if (!label->isVisible() || label->text().isEmpty()) continue;
            const bool fits = label->wordWrap() ? label->heightForWidth(label->width()) <= label->height()
                                                : label->sizeHint().width() <= label->width();
            if (!fits) cut << tile->objectName() + ": " + label->text();
        }
    }
    return cut;
}

}  // namespace faultline::test
