#include "stat_tile.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace faultline {

StatTile::StatTile(const QString& caption, QWidget* parent)
    : QFrame(parent), m_caption(new QLabel(caption, this)), m_value(new QLabel(this)), m_detail(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(170);
    m_caption->setObjectName("caption");
    m_value->setObjectName("value");
    m_detail->setObjectName("detail");
    QFont big = m_value->font();
    big.setPointSizeF(big.pointSizeF() * 1.9);
    big.setBold(true);
    m_value->setFont(big);
    m_bigFont = big;
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setWordWrap(true);
    // Room for two lines whatever width the tile gets: a wrapped label asks for its height
    // only once laid out, and in a narrow tile its second line was drawn over the value.
    m_detail->setMinimumHeight(2 * m_detail->fontMetrics().lineSpacing());
    dimCaptions();

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(2);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    layout->addStretch();
}

// The caption and detail in the theme's placeholder colour, set again when the theme changes
// (a palette set on a label no longer follows its parent's).
void StatTile::dimCaptions() {
    QPalette dim = palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_caption->setPalette(dim);
    m_detail->setPalette(dim);
}

void StatTile::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) dimCaptions();
}

void StatTile::setValue(const QString& value) {
    m_figure = true;
    m_value->setFont(m_bigFont);
    m_value->setWordWrap(false);
    m_value->setText(value);
}

void StatTile::setNoFigure(const QString& words) {
    m_figure = false;
    QFont plain = m_bigFont;
    plain.setPointSizeF(m_detail->font().pointSizeF() * 1.15);
    m_value->setFont(plain);
    m_value->setWordWrap(true);
    m_value->setText(words);
}

void StatTile::setDetail(const QString& detail) { m_detail->setText(detail); }
QString StatTile::value() const { return m_value->text(); }
QString StatTile::detail() const { return m_detail->text(); }

}  // namespace faultline
