#include "colour_legend.h"

#include <QPainter>

#include <algorithm>

namespace faultline {

namespace {
constexpr int kPadding = 8;
constexpr int kSwatch = 14;
}

ColourLegend::ColourLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void ColourLegend::setEntries(std::vector<Entry> entries) {
    m_entries = std::move(entries);
    updateGeometry();
    update();
}

QSize ColourLegend::sizeHint() const {
    const QFontMetrics fm(font());
    int textWidth = 0;
    for (const Entry& e : m_entries) textWidth = std::max(textWidth, fm.horizontalAdvance(e.text));
    const int line = std::max(kSwatch, fm.height()) + 4;
    return {2 * kPadding + kSwatch + 6 + textWidth, 2 * kPadding + line * static_cast<int>(m_entries.size())};
}

void ColourLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    // The window's own colour, a little see-through: dark text on light, light text on dark.
    QColor fill = palette().color(QPalette::Window);
    fill.setAlpha(230);
    p.setBrush(fill);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const QFontMetrics fm(font());
    const int line = std::max(kSwatch, fm.height()) + 4;
    int y = kPadding;
    for (const Entry& e : m_entries) {
        const QRect swatch(kPadding, y + (line - kSwatch) / 2, kSwatch, kSwatch);
        p.setPen(e.outline.isValid() ? QPen(e.outline, 2) : QPen(QColor(0, 0, 0, 60), 1));
        p.setBrush(e.fill);
        p.drawRect(swatch);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(swatch.right() + 6, y, width(), line), Qt::AlignVCenter | Qt::AlignLeft, e.text);
        y += line;
    }
}

}  // namespace faultline
