#pragma once
// The core's UTF-8 text as Qt's: one conversion for every view, window and export.
#include <QString>

#include <string_view>

namespace faultline {

inline QString qtText(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace faultline
