#pragma once
// A track over a whole span of time with a handle at the current instant and tick marks at
// instants that matter (incidents). Drag or click to move; knows nothing of runs: values
// are int64 (nanoseconds to the caller).
#include <QColor>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace faultline {

class TimeScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimeScrubber(QWidget* parent = nullptr);

    void setRange(std::int64_t maximum);
    void setValue(std::int64_t value);  // does not emit scrubbed
    std::int64_t value() const { return m_value; }
    std::int64_t maximum() const { return m_maximum; }
    void setMarks(std::vector<std::int64_t> marks);
    // The marks' colour (the failed state's, from the palette in use).
    void setMarkColour(const QColor& colour);
    QColor markColour() const { return m_markColour; }

    QSize sizeHint() const override { return {400, 28}; }
    // The x coordinate where `value` is drawn: for tests and tooltips.
    int xOf(std::int64_t value) const;

signals:
    void scrubbed(std::int64_t value);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    std::int64_t valueAt(double x) const;
    QRectF track() const;

    std::int64_t m_maximum = 1;
    std::int64_t m_value = 0;
    std::vector<std::int64_t> m_marks;
    QColor m_markColour{200, 40, 40};
};

}  // namespace faultline
