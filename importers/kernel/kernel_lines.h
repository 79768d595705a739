#pragma once
// A kernel log's lines as the kernel wrote them: a line cut at a terminal's width (a dmesg
// copied from an 80-column terminal) is joined again with the physical lines that are its rest
// (those that are no kernel line of their own).
#include "importers/text/line_reader.h"

#include <string>
#include <string_view>

namespace faultline {

class KernelLines {
public:
    explicit KernelLines(LineReader& in) : m_in(in) {}

    // The next line, its cut pieces joined; valid until the next call.
    bool next(std::string_view& line);
    // "FILE:LINE" of the line's first physical line.
    std::string where() const;
    [[noreturn]] void fail(const std::string& what) const;
    // Physical lines joined to the one before them so far.
    std::int64_t joined() const { return m_joined; }

private:
    bool read();

    LineReader& m_in;
    std::string m_line, m_ahead;
    std::int64_t m_lineNumber = 0, m_aheadNumber = 0, m_joined = 0;
    bool m_haveAhead = false;
};

}  // namespace faultline
