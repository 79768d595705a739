#pragma once
// A figure at a glance: a caption, a large value and a line of detail under it.
#include <QFrame>

class QLabel;

namespace faultline {

class StatTile : public QFrame {
    Q_OBJECT
public:
    explicit StatTile(const QString& caption, QWidget* parent = nullptr);

    void setValue(const QString& value);
    // Words in place of a figure ("not enough of the run to say"): in the detail's size,
    // wrapped, so they never read as a figure.
    void setNoFigure(const QString& words);
    void setDetail(const QString& detail);
    QString value() const;
    QString detail() const;
    bool showsFigure() const { return m_figure; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void dimCaptions();
    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_detail;
    QFont m_bigFont;
    bool m_figure = true;
};

}  // namespace faultline
