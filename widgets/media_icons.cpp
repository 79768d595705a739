#include "media_icons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace faultline {

namespace {

constexpr int kSize = 32;  // drawn large and scaled down by the button: crisp at any DPI

QPainterPath triangle(double left, double right, bool pointsRight) {
    QPainterPath path;
    const double tip = pointsRight ? right : left, base = pointsRight ? left : right;
    path.moveTo(base, 6);
    path.lineTo(tip, kSize / 2.0);
    path.lineTo(base, kSize - 6);
    path.closeSubpath();
    return path;
}

}  // namespace

QIcon mediaIcon(MediaIcon kind, const QColor& colour) {
    QPixmap pixmap(kSize, kSize);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    switch (kind) {
        case MediaIcon::Play: p.drawPath(triangle(9, 26, true)); break;
        case MediaIcon::Pause:
            p.drawRect(QRectF(8, 6, 6, kSize - 12));
            p.drawRect(QRectF(18, 6, 6, kSize - 12));
            break;
        case MediaIcon::SkipBackward:
            p.drawRect(QRectF(5, 6, 4, kSize - 12));
            p.drawPath(triangle(9, 19, false));
            p.drawPath(triangle(17, 27, false));
            break;
        case MediaIcon::SkipForward:
            p.drawPath(triangle(5, 15, true));
            p.drawPath(triangle(13, 23, true));
            p.drawRect(QRectF(23, 6, 4, kSize - 12));
            break;
    }
    p.end();
    return QIcon(pixmap);
}

}  // namespace faultline
