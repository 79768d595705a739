#include "collective_chunks.h"

#include "error.h"

namespace faultline {

namespace {

// Unsigned arithmetic throughout: differences of any two int64 wrap instead of overflowing.
std::uint64_t zigzag(std::int64_t v) {
    const auto u = static_cast<std::uint64_t>(v);
    return (u << 1) ^ (v < 0 ? ~std::uint64_t{0} : 0);
}

std::int64_t unzigzag(std::uint64_t u) {
    return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

// Writes v at p and returns the end: a record's numbers go to a buffer of its own and are
// appended at once (byte by byte onto the string was most of writing a large run's file).
char* putVarint(char* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<char>(static_cast<unsigned char>(v) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<char>(v);
    return p;
}

class VarintReader {
public:
    explicit VarintReader(std::string_view data) : m_p(data.data()), m_end(data.data() + data.size()) {}
    std::uint64_t next() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end) throw Error("the chunk ends inside a record");
            const auto byte = static_cast<unsigned char>(*m_p++);
            v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if (!(byte & 0x80)) return v;
        }
        throw Error("a number in the chunk runs over 64 bits");
    }
    std::int64_t signedNext() { return unzigzag(next()); }
    std::int32_t int32Next() {
        const std::int64_t v = signedNext();
        if (v < INT32_MIN || v > INT32_MAX) throw Error("an index in the chunk runs over 32 bits");
        return static_cast<std::int32_t>(v);
    }
    bool atEnd() const { return m_p == m_end; }

private:
    const char* m_p;
    const char* m_end;
};

}  // namespace

std::string encodeCollectiveChunk(std::span<const CollectiveRecord> records) {
    std::string out;
    out.reserve(records.size() * 16);
    std::uint64_t previousEnter = 0;
    char record[7 * 10];  // seven varints of 10 bytes at most
    for (const CollectiveRecord& c : records) {
        char* p = record;
        p = putVarint(p, zigzag(c.rank));
        p = putVarint(p, zigzag(c.group));
        p = putVarint(p, zigzag(c.op));
        p = putVarint(p, zigzag(c.seq));
        const auto enter = static_cast<std::uint64_t>(c.enter);
        p = putVarint(p, zigzag(static_cast<std::int64_t>(enter - previousEnter)));
        p = putVarint(p, zigzag(static_cast<std::int64_t>(static_cast<std::uint64_t>(c.exit) - enter)));
        p = putVarint(p, zigzag(c.bytes));
        out.append(record, p);
        previousEnter = enter;
    }
    return out;
}

void decodeCollectiveChunk(std::string_view chunk, std::size_t count, CollectiveRecords& out) {
    VarintReader in(chunk);
    std::uint64_t previousEnter = 0;
    for (std::size_t i = 0; i < count; ++i) {
        CollectiveRecord c;
        c.rank = in.int32Next();
        c.group = in.int32Next();
        c.op = in.int32Next();
        c.seq = in.signedNext();
        const std::uint64_t enter = previousEnter + static_cast<std::uint64_t>(in.signedNext());
        c.enter = static_cast<std::int64_t>(enter);
        c.exit = static_cast<std::int64_t>(enter + static_cast<std::uint64_t>(in.signedNext()));
        c.bytes = in.signedNext();
        previousEnter = enter;
        out.push_back(c);
    }
    if (!in.atEnd()) throw Error("the chunk holds more than its " + std::to_string(count) + " records");
}

}  // namespace faultline
