#include "cut_texts.h"

#include "widgets/stat_tile.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QtCharts/QChartView>

namespace faultline::test {

namespace {

// Where a user would see the widget: shown, and some of it in its window's view.
bool seen(const QWidget* w) { return w->isVisible() && !w->visibleRegion().isEmpty(); }

QString nameOf(const QWidget* w) {
    for (const QWidget* at = w; at; at = at->parentWidget())
        if (!at->objectName().isEmpty() && !at->objectName().startsWith("qt_")) return at->objectName();
    return w->metaObject()->className();
}

void chartTexts(const QWidget& window, QStringList& cut) {
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
}

bool labelFits(const QLabel* label) {
    if (label->wordWrap()) return label->heightForWidth(label->width()) <= label->height();
    if (label->textFormat() == Qt::PlainText || (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(label->text()))) {
        const int room = label->contentsRect().width() - 2 * label->margin() - (label->indent() > 0 ? label->indent() : 0);
        int widest = 0;
        for (const QString& line : label->text().split('\n')) widest = std::max(widest, label->fontMetrics().horizontalAdvance(line));
        return widest <= room;
    }
    return label->sizeHint().width() <= label->width();
}

void labelTexts(const QWidget& window, QStringList& cut) {
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        if (!seen(label) || label->text().isEmpty()) continue;
        if (label->inherits("QTipLabel")) continue;  // a tooltip sizes itself to its text
        // The status bar's own label is looked at as the bar's message below.
        if (qobject_cast<const QStatusBar*>(label->parentWidget())) continue;
        if (!labelFits(label)) cut << nameOf(label) + ": " + label->text();
    }
}

void buttonTexts(const QWidget& window, QStringList& cut) {
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
        if (!seen(button) || button->text().isEmpty()) continue;
        if (button->sizeHint().width() > button->width()) cut << nameOf(button) + ": " + button->text();
    }
}

void itemTexts(const QWidget& window, QStringList& cut) {
    for (const QHeaderView* header : window.findChildren<QHeaderView*>()) {
        if (!seen(header) || header->orientation() != Qt::Horizontal) continue;
        const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int section = 0; section < header->count(); ++section) {
            if (header->isSectionHidden(section) || header->sectionSize(section) == 0) continue;
            const QString text = header->model()->headerData(section, Qt::Horizontal).toString();
            if (text.isEmpty()) continue;
            if (header->fontMetrics().horizontalAdvance(text) + 2 * margin > header->sectionSize(section))
                cut << nameOf(header) + " header: " + text;
            // A column begun in the view and running off its edge: the user sees half of it.
            const int left = header->sectionViewportPosition(section);
            if (left >= 0 && left < header->viewport()->width() && left + header->sectionSize(section) > header->viewport()->width() + 1)
                cut << nameOf(header) + " column off the edge: " + text;
        }
    }
    for (const QAbstractItemView* view : window.findChildren<QAbstractItemView*>()) {
        if (!seen(view) || !view->model() || view->textElideMode() == Qt::ElideNone) continue;
        const QRect shown = view->viewport()->rect();
        const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        for (int row = 0; row < std::min(view->model()->rowCount(), 200); ++row)
            for (int column = 0; column < view->model()->columnCount(); ++column) {
                const QModelIndex index = view->model()->index(row, column);
                const QRect cell = view->visualRect(index);
                if (!cell.isValid() || !shown.intersects(cell)) continue;
                const QString text = index.data().toString();
                if (text.isEmpty() || text.contains('\n')) continue;
                QFont font = view->font();
                if (const QVariant f = index.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
                int room = cell.width() - 2 * margin;
                if (index.data(Qt::DecorationRole).isValid()) room -= view->iconSize().width() + 4;
                const QFontMetrics metrics(font);
                if (metrics.horizontalAdvance(text) <= room) continue;
                // A table that wraps its words shows a long text whole on the lines its row has.
                const auto* table = qobject_cast<const QTableView*>(view);
                if (table && table->wordWrap() &&
                    metrics.boundingRect(QRect(0, 0, room, 10'000), Qt::TextWordWrap, text).height() <= cell.height())
                    continue;
                cut << nameOf(view) + " cell: " + text;
            }
    }
}

void statusText(const QWidget& window, QStringList& cut) {
    for (const QStatusBar* bar : window.findChildren<QStatusBar*>()) {
        if (!seen(bar) || bar->currentMessage().isEmpty()) continue;
        int room = bar->width() - 12;  // the bar's margins and size grip
        for (const QWidget* permanent : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            if (permanent->isVisible() && !qobject_cast<const QLabel*>(permanent)) room -= permanent->width();
        if (bar->fontMetrics().horizontalAdvance(bar->currentMessage()) > room) cut << nameOf(bar) + ": " + bar->currentMessage();
    }
}

}  // namespace

QStringList cutTexts(const QWidget& window) {
    QStringList cut;
    chartTexts(window, cut);
    labelTexts(window, cut);
    buttonTexts(window, cut);
    itemTexts(window, cut);
    statusText(window, cut);
    return cut;
}

}  // namespace faultline::test
