#pragma once
// A job's files as the follow tests write them while a follower reads: text appended as a
// writer appends it, read back whole, and the kernel's Xid line they add.
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace faultline::test {

inline std::string textOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void append(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << text;
}

// A GPU falling off the bus on gpu-node-NN at 04:MM:10 on 2025-01-21.
inline std::string xidLine(int minute, int node) {
    char line[200];
    std::snprintf(line, sizeof line, "2025-01-21T04:%02d:10+0000 gpu-node-%02d kernel: NVRM: Xid (PCI:0000:1b:00): 79, pid=77, name=python, GPU has fallen off the bus.\n",
                  minute, node);
    return line;
}

// The same on `host` at `epochNs` (Unix epoch nanoseconds).
inline std::string xidLineAt(std::int64_t epochNs, const std::string& host) {
    const auto seconds = static_cast<std::time_t>(epochNs / 1'000'000'000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S+0000", &utc);
    return std::string(when) + " " + host + " kernel: NVRM: Xid (PCI:0000:1b:00): 79, pid=77, name=python, GPU has fallen off the bus.\n";
}

}  // namespace faultline::test
