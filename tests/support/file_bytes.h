#pragma once
// A file's bytes, whole, for tests that compare what was written (empty when it cannot be
// read), and files written byte for byte.
#include "test_runs.h"

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace faultline::test {

inline std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Writes `bytes` to `path` as they are, replacing what was there.
inline void writeFile(const std::string& path, std::string_view bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Writes `bytes` to the file `name` in `dir`; returns its path.
inline std::string writeFile(const ScratchDir& dir, const std::string& name, std::string_view bytes) {
    const std::string path = dir.file(name);
    writeFile(path, bytes);
    return path;
}

}  // namespace faultline::test
