#pragma once
// Play, pause and skip icons drawn in a given colour, so that they stay visible on the
// theme's buttons (the style's own icons are dark grey whatever the theme).
#include <QColor>
#include <QIcon>

namespace faultline {

enum class MediaIcon { Play, Pause, SkipBackward, SkipForward };

QIcon mediaIcon(MediaIcon kind, const QColor& colour);

}  // namespace faultline
