#include "heat_map.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "nice_ticks.h"

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {
constexpr int kLabelWidth = 70;
constexpr int kAxisHeight = 34;  // tick labels and the axis title under the grid
constexpr int kScaleWidth = 64;  // the colour scale right of the grid
}

HeatMap::HeatMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(200, 90);
}

QRgb HeatMap::colourFor(double value) {
    // From a pale background to deep orange: how much the others waited.
    const double v = std::clamp(value, 0.0, 1.0);
    const double t = std::sqrt(v);  // small scores stay visible
    auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t); };
    return qRgb(mix(245, 200), mix(245, 60), mix(240, 0));
}

void HeatMap::setData(std::vector<std::vector<double>> values, QStringList rowLabels) {
    m_values = std::move(values);
    m_rowLabels = std::move(rowLabels);
    m_columns = 0;
    for (const auto& row : m_values) m_columns = std::max(m_columns, static_cast<int>(row.size()));
    m_low = 1;
    m_high = 0;
    for (const auto& row : m_values)
        for (double v : row) {
            m_low = std::min(m_low, v);
            m_high = std::max(m_high, v);
        }
    if (m_high <= m_low) {  // nothing, or one value everywhere: the whole 0..100% scale
        m_low = 0;
        m_high = std::max(1e-9, std::max(m_high, 1.0));
    }
    m_image = QImage(std::max(1, m_columns), std::max(1, rows()), QImage::Format_RGB32);
    m_image.fill(colourOfValue(m_low));
    for (int r = 0; r < rows(); ++r)
        for (int c = 0; c < static_cast<int>(m_values[static_cast<std::size_t>(r)].size()); ++c) m_image.setPixel(c, r, colourOfValue(value(r, c)));
    update();
}

QRgb HeatMap::colourOfValue(double v) const { return colourFor(std::clamp((v - m_low) / (m_high - m_low), 0.0, 1.0)); }

void HeatMap::setMarkerColumn(int column) {
    if (column == m_marker) return;
    m_marker = column;
    update();
}

double HeatMap::value(int row, int column) const {
    if (row < 0 || row >= rows() || column < 0) return 0.0;
    const auto& r = m_values[static_cast<std::size_t>(row)];
    return column < static_cast<int>(r.size()) ? r[static_cast<std::size_t>(column)] : 0.0;
}

QRect HeatMap::gridRect() const {
    const bool axis = m_axisTo > m_axisFrom;
    return rect().adjusted(kLabelWidth, 4, -kScaleWidth, axis ? -kAxisHeight : -4);
}

void HeatMap::setColumnAxis(double from, double to, const QString& title) {
    m_axisFrom = from;
    m_axisTo = to;
    m_axisTitle = title;
    update();
}

void HeatMap::setScaleTitle(const QString& title) {
    m_scaleTitle = title;
    setToolTip(QString());
    update();
}

void HeatMap::drawAxis(QPainter& p, const QRect& g) {
    if (!(m_axisTo > m_axisFrom)) return;
    const int room = std::max(2, g.width() / 70);
    const NiceScale scale = niceScale(m_axisFrom, m_axisTo, room);
    const int decimals = stepDecimals(scale.step);
    p.setPen(palette().text().color());
    for (double v = scale.min; v <= m_axisTo + scale.step * 1e-6; v += scale.step) {
        if (v < m_axisFrom - scale.step * 1e-6) continue;
        const int x = g.left() + static_cast<int>((v - m_axisFrom) / (m_axisTo - m_axisFrom) * g.width());
        p.drawLine(x, g.bottom() + 1, x, g.bottom() + 4);
        const QString label = QString::number(v, 'f', decimals);
        const int w = fontMetrics().horizontalAdvance(label);
        p.drawText(QPoint(std::clamp(x - w / 2, g.left() - 10, g.right() - w + 10), g.bottom() + 4 + fontMetrics().ascent()), label);
    }
    p.drawText(QRect(g.left(), g.bottom() + 4 + fontMetrics().height(), g.width(), fontMetrics().height()), Qt::AlignCenter, m_axisTitle);
}

void HeatMap::drawScale(QPainter& p, const QRect& g) {
    // A vertical bar from 0% (bottom) to 100% (top), in the cells' colours.
    const QRect bar(g.right() + 10, g.top(), 12, g.height());
    for (int y = 0; y < bar.height(); ++y) {
        const double v = 1.0 - static_cast<double>(y) / std::max(1, bar.height() - 1);
        p.setPen(QColor::fromRgb(colourFor(v)));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(palette().mid().color());
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(palette().text().color());
    const int fh = fontMetrics().height();
    // As precise as the span needs: "11.2%" .. "11.6%" for ranks that all wait about as long.
    const int decimals = m_high - m_low < 0.05 ? 1 : 0;
    auto percent = [decimals](double v) { return QString::number(100.0 * v, 'f', decimals) + "%"; };
    p.drawText(QRect(bar.right() + 3, bar.top() - 2, kScaleWidth, fh), Qt::AlignLeft | Qt::AlignTop, percent(m_high));
    if (bar.height() > 3 * fh)
        p.drawText(QRect(bar.right() + 3, bar.center().y() - fh / 2, kScaleWidth, fh), Qt::AlignLeft | Qt::AlignVCenter, percent((m_low + m_high) / 2));
    p.drawText(QRect(bar.right() + 3, bar.bottom() - fh + 2, kScaleWidth, fh), Qt::AlignLeft | Qt::AlignBottom, percent(m_low));
}

QPoint HeatMap::cellAt(const QPoint& pos) const {
    const QRect g = gridRect();
    if (!g.contains(pos) || rows() == 0 || m_columns == 0) return {-1, -1};
    return {(pos.x() - g.left()) * m_columns / g.width(), (pos.y() - g.top()) * rows() / g.height()};
}

void HeatMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect g = gridRect();
    if (rows() == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("No collective traces in this run"));
        return;
    }
    p.drawImage(g, m_image);
    drawAxis(p, g);
    drawScale(p, g);
    // Label as many rows as fit.
    const int lineHeight = fontMetrics().height();
    const int every = std::max(1, (rows() * lineHeight + g.height() - 1) / std::max(1, g.height()));
    for (int r = 0; r < rows(); r += every) {
        const int y = g.top() + (2 * r + 1) * g.height() / (2 * rows());
        p.drawText(QRect(0, y - lineHeight / 2, kLabelWidth - 4, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
                   r < m_rowLabels.size() ? m_rowLabels[r] : QString::number(r));
    }
    if (m_marker >= 0 && m_columns > 0) {
        const int x = g.left() + (2 * m_marker + 1) * g.width() / (2 * m_columns);
        p.setPen(QPen(palette().highlight().color(), 2));
        p.drawLine(x, g.top(), x, g.bottom());
    }
}

void HeatMap::mouseMoveEvent(QMouseEvent* event) {
    const QPoint cell = cellAt(event->position().toPoint());
    if (cell.x() < 0) {
        // The colour scale explains itself.
        const QRect g = gridRect();
        if (event->position().x() > g.right() && !m_scaleTitle.isEmpty())
            QToolTip::showText(event->globalPosition().toPoint(), tr("Colour: %1, from %2% (pale) to %3% (deep orange): the values shown")
                                                                     .arg(m_scaleTitle)
                                                                     .arg(100.0 * m_low, 0, 'f', 1)
                                                                     .arg(100.0 * m_high, 0, 'f', 1), this);
        return;
    }
    const double v = value(cell.y(), cell.x());
    QString where = tr("window %1").arg(cell.x());
    if (m_axisTo > m_axisFrom && m_columns > 0) {
        const double w = (m_axisTo - m_axisFrom) / m_columns;
        where = tr("%1 to %2 %3").arg(m_axisFrom + w * cell.x(), 0, 'f', 2).arg(m_axisFrom + w * (cell.x() + 1), 0, 'f', 2).arg(m_axisTitle);
    }
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1, %2: %3% %4").arg(cell.y() < m_rowLabels.size() ? m_rowLabels[cell.y()] : QString::number(cell.y()))
                           .arg(where)
                           .arg(v * 100.0, 0, 'f', 1)
                           .arg(m_scaleTitle.isEmpty() ? tr("straggler score") : m_scaleTitle),
                       this);
    emit cellHovered(cell.y(), cell.x(), v);
}

void HeatMap::mousePressEvent(QMouseEvent* event) {
    const QPoint cell = cellAt(event->position().toPoint());
    if (cell.x() >= 0) emit columnClicked(cell.x());
}

}  // namespace faultline
