#pragma once
// What the colours mean: a column of swatches with a line of text each. Knows nothing of
// runs; the view that owns the colours fills it.
#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace faultline {

class ColourLegend : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QColor fill;
        QString text;
        QColor outline;  // invalid: none; for marks drawn as outlines rather than fills
    };

    explicit ColourLegend(QWidget* parent = nullptr);
    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return m_entries; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Entry> m_entries;
};

}  // namespace faultline
