#pragma once
// A file's bytes, whole, for tests that compare what was written; empty when it cannot be read.
#include <fstream>
#include <sstream>
#include <string>

namespace faultline::test {

inline std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace faultline::test
