#include "importers/kernel/kernel_lines.h"

#include "importers/kernel/kernel_log_line.h"
#include "importers/text/terminal_width.h"
#include "importers/text/text_parse.h"

namespace faultline {

namespace {

// A line the kernel log reads on its own (a date out of range is one too: the importer names it).
bool kernelLine(std::string_view line) {
    try {
        return parseKernelLogLine(line, 2000).has_value();
    } catch (const TimeOutOfRange&) {
        return true;
    }
}

}  // namespace

bool KernelLines::read() {
    std::string_view physical;
    if (!m_in.next(physical)) return false;
    m_ahead.assign(physical);
    m_aheadNumber = m_in.lineNumber();
    m_haveAhead = true;
    return true;
}

bool KernelLines::next(std::string_view& line) {
    if (!m_haveAhead && !read()) return false;
    m_line.swap(m_ahead);
    m_lineNumber = m_aheadNumber;
    m_haveAhead = false;
    std::size_t piece = m_line.size();
    while (terminalWide(piece) && read()) {
        if (trim(m_ahead).empty() || kernelLine(m_ahead)) break;  // kept for the next call
        piece = m_ahead.size();
        m_line += m_ahead;
        m_haveAhead = false;
        ++m_joined;
    }
    line = m_line;
    return true;
}

std::string KernelLines::where() const { return m_in.where().substr(0, m_in.where().rfind(':')) + ":" + std::to_string(m_lineNumber); }

void KernelLines::fail(const std::string& what) const { throw Error(where() + ": " + what); }

}  // namespace faultline
