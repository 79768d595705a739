#include "app_icon.h"

namespace faultline {

QIcon appIcon() {
    QIcon builtIn;
    for (int size : {16, 24, 32, 48, 64, 128, 256}) builtIn.addFile(QString(":/icons/faultline-%1.png").arg(size), QSize(size, size));
    return QIcon::fromTheme("faultline", builtIn);
}

}  // namespace faultline
