#pragma once
// The temporary file a run file is written into, beside its target (TARGET.partial-PID), and
// renamed over the target once complete, so a reader never sees half a run. An interrupted
// writer must not leave it behind: Ctrl-C, SIGTERM and SIGHUP remove it before the process
// ends, and the next write to the same target removes those of writers that are gone
// (killed with SIGKILL, or a machine that lost power).
#include <functional>
#include <string>

namespace faultline {

class PartialFile {
public:
    explicit PartialFile(std::string target);
    ~PartialFile();  // removes the file unless it was committed
    PartialFile(const PartialFile&) = delete;
    PartialFile& operator=(const PartialFile&) = delete;

    const std::string& path() const { return m_path; }
    const std::string& target() const { return m_target; }
    // Flushes the file to disk and renames it over the target.
    void commit();

private:
    std::string m_target;
    std::string m_path;
    int m_slot = -1;  // where the signal handler finds the path
    bool m_committed = false;
};

// Removes TARGET.partial-PID files whose process no longer runs; returns how many.
int removeStalePartials(const std::string& target);

// Writes `target` whole or not at all: `write` fills a PartialFile (given its path), which
// then replaces the target. Errors name the target, never the temporary file.
void writeThroughPartial(const std::string& target, const std::function<void(const std::string& partialPath)>& write);

}  // namespace faultline
