#pragma once
// Whether a path lies inside a folder, however either is named: one answer for the output
// guard (a file inside an input folder is an input) and for following a folder (its run file
// may not be written inside it, where the next look would list it as evidence).
#include <string>

namespace faultline {

// Whether `path` lies below `folder` (not the folder itself). Both are made absolute and
// resolved through their links (`path` need not exist yet: its existing part is resolved), then
// compared name by name: "/data/run2/x" is not inside "/data/run", nor "/data/run/../x".
// False when either cannot be resolved.
bool isInsideFolder(const std::string& path, const std::string& folder);

}  // namespace faultline
