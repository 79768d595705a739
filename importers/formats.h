#pragma once
// The formats Faultline reads, gathered from the families' readers, and how a file is
// recognised from its first bytes.
#include "importers/events/reader.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

const std::vector<FormatInfo>& formats();
const FormatInfo* findFormat(std::string_view name);
// The format of `path` judged from its first (decompressed) bytes; nullptr when unknown.
const FormatInfo* detectFormat(const std::string& path);
// The same for a plain (uncompressed) file already read whole into `data`: the bytes are
// judged, not read again (a file of a megabyte or more is still looked into past its head).
const FormatInfo* detectFormatOfPlainFile(const std::string& path, std::string_view data);
// "kineto, flight-recorder, ..." for messages.
std::string formatNames();

}  // namespace faultline
