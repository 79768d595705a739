#pragma once
// The app's light and dark themes: Qt's Fusion style with a palette of each.
#include <QString>

namespace faultline {

enum class Theme { Light, Dark };

void applyTheme(Theme theme);
Theme themeFromName(const QString& name);  // "dark" or anything else for light
QString themeName(Theme theme);

}  // namespace faultline
