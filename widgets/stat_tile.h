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
    void setDetail(const QString& detail);
    QString value() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void dimCaptions();
    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_detail;
};

}  // namespace faultline
