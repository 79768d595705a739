#pragma once
#include <QIcon>

namespace faultline {

// Faultline's icon: the desktop theme's "faultline" where installed, else the PNG sizes
// built into the binary (drawn from resources/icons/faultline.svg).
QIcon appIcon();

}  // namespace faultline
