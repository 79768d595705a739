#pragma once
// A rows x columns grid of values in [0, 1] drawn as colours, for what Qt Charts has no
// series for (e.g. ranks x time). The colours span the values shown, lowest pale to highest
// deep (ranks that all wait ~11% still differ on screen), and the scale beside says which
// values those are. Hover names the cell; a click reports its column.
#include <QImage>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace faultline {

class HeatMap : public QWidget {
    Q_OBJECT
public:
    explicit HeatMap(QWidget* parent = nullptr);

    // values[row][column], each in [0, 1]; rows may differ in length (missing cells are 0).
    void setData(std::vector<std::vector<double>> values, QStringList rowLabels);
    // Labels the columns along the bottom with round values from `from` to `to` (the start of
    // the first column, the end of the last), titled `title`.
    void setColumnAxis(double from, double to, const QString& title);
    // The colour scale's title, beside the scale from the lowest value shown to the highest.
    void setScaleTitle(const QString& title);
    // The marker column (e.g. the replay's current time), -1 for none.
    void setMarkerColumn(int column);
    double value(int row, int column) const;
    int rows() const { return static_cast<int>(m_values.size()); }
    int columns() const { return m_columns; }
    // The cell under a point of the widget, or (-1, -1).
    QPoint cellAt(const QPoint& pos) const;
    static QRgb colourFor(double value);  // 0 pale .. 1 deep
    // The values the palest and the deepest colour stand for.
    double scaleLow() const { return m_low; }
    double scaleHigh() const { return m_high; }
    // The colour a value is drawn in, on this map's scale.
    QRgb colourOfValue(double value) const;

signals:
    void columnClicked(int column);
    void cellHovered(int row, int column, double value);

protected:
    void paintEvent(QPaintEvent* event) override;
    void drawAxis(QPainter& p, const QRect& grid);
    void drawScale(QPainter& p, const QRect& grid);
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRect gridRect() const;

    std::vector<std::vector<double>> m_values;
    QStringList m_rowLabels;
    int m_columns = 0;
    int m_marker = -1;
    QImage m_image;  // one pixel a cell, scaled when painted
    double m_axisFrom = 0, m_axisTo = 0;
    QString m_axisTitle;
    QString m_scaleTitle;
    double m_low = 0, m_high = 1;  // the scale: the values shown
};

}  // namespace faultline
