#include "importers/text/text_encoding.h"

#include <cstring>

namespace faultline {

namespace {

void putCodePoint(char32_t c, std::string& out) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

constexpr char32_t kReplacement = 0xFFFD;

// The length of the valid UTF-8 sequence at `p` (at most `n` bytes), or 0 when it is not one.
std::size_t sequenceLength(const unsigned char* p, std::size_t n) {
    const unsigned char b = p[0];
    if (b < 0x80) return 1;
    std::size_t len = 0;
    char32_t c = 0;
    if (b >= 0xC2 && b <= 0xDF) len = 2, c = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF) len = 3, c = b & 0x0F;
    else if (b >= 0xF0 && b <= 0xF4) len = 4, c = b & 0x07;
    else return 0;
    if (len > n) return 0;
    for (std::size_t i = 1; i < len; ++i) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    return len;
}

}  // namespace

void Utf16Decoder::unit(std::uint16_t u, std::string& out) {
    if (m_high) {
        const std::uint16_t high = m_high;
        m_high = 0;
        if (u >= 0xDC00 && u <= 0xDFFF) {
            putCodePoint(0x10000 + ((static_cast<char32_t>(high - 0xD800) << 10) | (u - 0xDC00)), out);
            return;
        }
        putCodePoint(kReplacement, out);
    }
    if (u >= 0xD800 && u <= 0xDBFF) m_high = u;
    else if (u >= 0xDC00 && u <= 0xDFFF) putCodePoint(kReplacement, out);
    else putCodePoint(u, out);
}

void Utf16Decoder::decode(std::string_view in, std::string& out) {
    std::size_t i = 0;
    auto pair = [&](unsigned char a, unsigned char b) { return static_cast<std::uint16_t>(m_bigEndian ? (a << 8) | b : (b << 8) | a); };
    if (m_odd >= 0 && !in.empty()) {
        unit(pair(static_cast<unsigned char>(m_odd), static_cast<unsigned char>(in[0])), out);
        m_odd = -1;
        i = 1;
    }
    for (; i + 1 < in.size(); i += 2) unit(pair(static_cast<unsigned char>(in[i]), static_cast<unsigned char>(in[i + 1])), out);
    if (i < in.size()) m_odd = static_cast<unsigned char>(in[i]);
}

void Utf16Decoder::finish(std::string& out) {
    if (m_high || m_odd >= 0) putCodePoint(kReplacement, out);
    m_high = 0;
    m_odd = -1;
}

bool validUtf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n) {
        if (i + 8 <= n) {
            std::uint64_t word;
            std::memcpy(&word, p + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        const std::size_t len = sequenceLength(p + i, n - i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

std::string latin1ToUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = sequenceLength(p + i, text.size() - i);
        if (len == 0) {
            putCodePoint(p[i], out);
            ++i;
        } else {
            out.append(text.data() + i, len);
            i += len;
        }
    }
    return out;
}

std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes) return text;
    std::size_t n = maxBytes;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // a continuation byte: back to its lead
    return text.substr(0, n);
}

}  // namespace faultline
