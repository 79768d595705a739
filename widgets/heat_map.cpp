#include "heat_map.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {
constexpr int kLabelWidth = 70;
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
    m_image = QImage(std::max(1, m_columns), std::max(1, rows()), QImage::Format_RGB32);
    m_image.fill(colourFor(0));
    for (int r = 0; r < rows(); ++r)
        for (int c = 0; c < static_cast<int>(m_values[static_cast<std::size_t>(r)].size()); ++c) m_image.setPixel(c, r, colourFor(value(r, c)));
    update();
}

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

QRect HeatMap::gridRect() const { return rect().adjusted(kLabelWidth, 4, -4, -4); }

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
    if (cell.x() < 0) return;
    const double v = value(cell.y(), cell.x());
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1, window %2: %3%").arg(cell.y() < m_rowLabels.size() ? m_rowLabels[cell.y()] : QString::number(cell.y()))
                           .arg(cell.x())
                           .arg(v * 100.0, 0, 'f', 1),
                       this);
    emit cellHovered(cell.y(), cell.x(), v);
}

void HeatMap::mousePressEvent(QMouseEvent* event) {
    const QPoint cell = cellAt(event->position().toPoint());
    if (cell.x() >= 0) emit columnClicked(cell.x());
}

}  // namespace faultline
