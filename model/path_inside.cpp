#include "model/path_inside.h"

#include <filesystem>

namespace faultline {

namespace {

namespace fs = std::filesystem;

// Absolute, through links, without "." or ".." and without the empty last name a trailing
// slash leaves.
fs::path resolved(const std::string& p, std::error_code& ec) {
    fs::path out = fs::weakly_canonical(fs::absolute(p, ec), ec).lexically_normal();
    if (!out.has_filename() && out.has_relative_path()) out = out.parent_path();
    return out;
}

}  // namespace

bool isInsideFolder(const std::string& path, const std::string& folder) {
    std::error_code ec;
    const fs::path file = resolved(path, ec);
    if (ec) return false;
    const fs::path dir = resolved(folder, ec);
    if (ec) return false;
    auto f = file.begin();
    for (auto d = dir.begin(); d != dir.end(); ++d, ++f)
        if (f == file.end() || *f != *d) return false;
    return f != file.end();
}

}  // namespace faultline
