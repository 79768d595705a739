#pragma once
// What a binary was built from and with: shown by `--version` of both programs and by
// Help > About. Qt-free so faultline-cli can print it too.
#include <string>
#include <vector>

namespace faultline {

struct LibraryInfo {
    std::string name;
    std::string version;  // the version linked at run time where the library says so
    std::string licence;  // SPDX identifier
    std::string url;
};

const char* faultlineVersion();
// "git 10ef304abc, RelWithDebInfo, GCC 12.2.0, built 2026-11-30"
std::string buildDescription();
// "faultline-cli 0.1.0" and the build on a second line, as `--version` prints it.
std::string versionText(const std::string& program);
// The libraries both programs link that are not Qt or VTK (the app adds those two).
std::vector<LibraryInfo> coreLibraries();

}  // namespace faultline
