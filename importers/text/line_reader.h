#pragma once
// Reads a text file (plain or compressed, UTF-8 or UTF-16) line by line in chunks: memory
// stays at the chunk size whatever the file size. Lines come without their "\n" or "\r\n";
// numbers start at 1.
//
// Damage a node leaves in its own logs is read around, not refused: a run of zero bytes (the
// block a hard reset left unwritten) ends the line before it and is skipped, and the text after
// it is read as the rest of that physical line (its number stays); a line holding bytes that
// are not UTF-8 is read with them as Latin-1. Each is told in `notes` when given.
#include "importers/text/input_file.h"

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// A "line" longer than this is not text a tool wrote line by line: readers stop rather than
// buffer an arbitrarily large binary blob.
inline constexpr std::size_t kMaxLineBytes = 64u << 20;

// "4,096 zero bytes at offset 131 (line 2): the node was probably reset here"
std::string zeroBytesNote(std::uint64_t count, std::uint64_t offset, std::int64_t line);

class LineReader {
public:
    // `notes`: where the notes about zero bytes and Latin-1 go (an import's report); may be null.
    explicit LineReader(const std::string& path, std::vector<std::string>* notes = nullptr);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // The next line, valid until the next call; false at the end of the file.
    bool next(std::string_view& line);

    std::int64_t lineNumber() const { return m_lineNumber; }
    const std::string& path() const { return m_in.path(); }
    double progress() const { return m_in.progress(); }

    // "FILE:LINE: what" for messages about the current line.
    std::string where() const;
    [[noreturn]] void fail(const std::string& what) const;

    // Notes given: at most this many runs of zero bytes are told one by one.
    static constexpr std::size_t kZeroRunNotes = 5;

private:
    bool fill();
    bool skipZeros();  // false at the end of the file
    void zeroRunEnded();
    std::string_view deliver(std::string_view line, bool endsLine);
    void flushNotes();

    InputFile m_in;
    std::vector<char> m_buf;
    std::size_t m_begin = 0;  // first unread byte in m_buf
    std::size_t m_end = 0;    // one past the last valid byte
    bool m_eof = false;
    std::int64_t m_lineNumber = 0;
    bool m_atLineStart = true;  // false after the part of a line a zero run cut

    std::vector<std::string>* m_notes;
    std::uint64_t m_zeroRun = 0, m_zeroRunOffset = 0;  // the run being skipped
    std::uint64_t m_zeroRuns = 0, m_zeroBytes = 0;     // all so far
    std::int64_t m_latin1Lines = 0, m_firstLatin1Line = 0;
    std::string m_converted;  // the last line read as Latin-1, as UTF-8
    bool m_flushed = false;
};

}  // namespace faultline
