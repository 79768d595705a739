#pragma once
// Text that is not UTF-8 made UTF-8: UTF-16 (PowerShell's `>` writes it, with a byte order
// mark) as it is read, and lines holding bytes that are not UTF-8 (a Latin-1 host name).
#include <cstdint>
#include <string>
#include <string_view>

namespace faultline {

// UTF-16 to UTF-8 in pieces of any size: an odd byte or the first half of a surrogate pair at
// the end of one piece waits for the next. A lone surrogate becomes U+FFFD.
class Utf16Decoder {
public:
    explicit Utf16Decoder(bool bigEndian) : m_bigEndian(bigEndian) {}
    void decode(std::string_view in, std::string& out);
    // At the end of the text: what was left over, as U+FFFD.
    void finish(std::string& out);

private:
    void unit(std::uint16_t u, std::string& out);
    bool m_bigEndian;
    int m_odd = -1;               // the first byte of a unit cut by the piece's end; -1: none
    std::uint16_t m_high = 0;     // a high surrogate waiting for its low half; 0: none
};

// At most `maxBytes` of `text`, cut before a character rather than inside one: a quoted line
// cut short (a report's "FILE:LINE: text", a failure's evidence) stays valid UTF-8 for JSON.
std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes);

// True when `text` is valid UTF-8 (ASCII is checked eight bytes at a time).
bool validUtf8(std::string_view text);

// `text` with every byte that is not part of valid UTF-8 read as Latin-1 (ISO 8859-1), so
// "n\xe9ud" becomes "n\xc3\xa9ud" (é); valid sequences are kept as they are.
std::string latin1ToUtf8(std::string_view text);

}  // namespace faultline
