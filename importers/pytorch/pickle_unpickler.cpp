// The opcode loop of the pickle reader (pickle_reader.h): values into a PickleData.
#include "importers/pytorch/pickle_unpickler.h"

#include "model/error.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace faultline {

namespace {

constexpr std::size_t kMaxPickleStack = 1u << 24;
constexpr std::uint32_t kNoNode = UINT32_MAX;

using Kind = PickleNode::Kind;

// The unpickler's stack of node ids: a plain array whose push is a store (a vector's
// push_back stays a call inside the large opcode loop, and every opcode pushes).
class IdStack {
public:
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint32_t back() const { return m_ids[m_size - 1]; }
    void pop_back() { --m_size; }
    void resize(std::size_t n) { m_size = n; }  // only ever shrinks
    std::uint32_t operator[](std::size_t i) const { return m_ids[i]; }
    [[gnu::always_inline]] void push_back(std::uint32_t id) {
        if (m_size == m_ids.size()) grow();
        m_ids[m_size++] = id;
    }

private:
    [[gnu::noinline]] void grow() { m_ids.resize(m_ids.size() * 2 + 1024); }
    std::vector<std::uint32_t> m_ids;
    std::size_t m_size = 0;
};

}  // namespace

namespace {

class Unpickler {
public:
    Unpickler(PickleData& doc, const std::string& name) : m_doc(doc), m_data(doc.data), m_name(name) {}

    std::uint32_t run() {
        for (;;) {
            if (m_pos >= m_data.size()) fail(m_pos, "the pickle ends before its STOP opcode (the file is cut short)");
            const std::size_t at = m_pos;
            const auto op = static_cast<unsigned char>(m_data[m_pos++]);
            if (op == '.') {  // STOP
                if (m_stack.size() != 1) fail(at, "STOP with " + std::to_string(m_stack.size()) + " values on the stack (expected 1)");
                return pop(at);
            }
            step(op, at);
            if (m_stack.size() > kMaxPickleStack) fail(at, "more than 16 million values on the pickle stack");
        }
    }

private:
    [[noreturn, gnu::cold, gnu::noinline]] void fail(std::size_t at, const std::string& what) const {
        throw Error(m_name + ": byte " + std::to_string(at) + ": " + what);
    }

    [[gnu::always_inline]] inline std::string_view take(std::size_t n, std::size_t at) {
        if (n > m_data.size() - m_pos) fail(at, "the pickle ends inside an opcode's argument (the file is cut short)");
        const std::string_view v(m_data.data() + m_pos, n);
        m_pos += n;
        return v;
    }
    [[gnu::always_inline]] inline std::uint64_t le(std::size_t n, std::size_t at) {
        const std::string_view b = take(n, at);
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < n; ++k) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[k])) << (8 * k);
        return v;
    }
    std::string_view line(std::size_t at) {
        const std::size_t nl = m_data.find('\n', m_pos);
        if (nl == std::string_view::npos) fail(at, "the pickle ends inside a text argument");
        const std::string_view v = m_data.substr(m_pos, nl - m_pos);
        m_pos = nl + 1;
        return v;
    }

    [[gnu::always_inline]] inline std::uint32_t pop(std::size_t at) {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() == m_marks.back()))
            fail(at, "an opcode needs a value but the pickle stack is empty");
        const std::uint32_t v = m_stack.back();
        m_stack.pop_back();
        return v;
    }
    [[gnu::always_inline]] inline std::uint32_t top(std::size_t at) {
        if (m_stack.empty()) fail(at, "an opcode needs a value but the pickle stack is empty");
        return m_stack.back();
    }
    // The values above the last MARK, removed from the stack: [first, stack end).
    [[gnu::always_inline]] inline std::size_t popMark(std::size_t at) {
        if (m_marks.empty()) fail(at, "an opcode needs a MARK but there is none");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        return mark;
    }
    [[gnu::always_inline]] inline std::uint32_t make(Kind k) {
        if (m_nodeCount >= kNoNode - 1) fail(m_pos, "more than 4 billion values");
        PickleNode::Raw n;
        n.kind = k;
        if (k == Kind::List || k == Kind::Tuple || k == Kind::Dict || k == Kind::Set) {
            n.a = static_cast<std::uint32_t>(m_chains.size());
            m_chains.emplace_back();
        }
        if (m_nodeCount == m_doc.nodes.size()) m_doc.nodes.resize(m_doc.nodes.size() * 2 + 1024);
        m_doc.nodes[m_nodeCount] = n;
        return static_cast<std::uint32_t>(m_nodeCount++);
    }
    [[gnu::always_inline]] inline void push(std::uint32_t n) { m_stack.push_back(n); }
    [[gnu::always_inline]] inline void pushInt(std::int64_t v) {
        const std::uint32_t n = make(Kind::Int);
        m_doc.nodes[n].b = static_cast<std::uint64_t>(v);
        push(n);
    }
    [[gnu::always_inline]] inline void pushBool(bool b) {
        const std::uint32_t n = make(Kind::Bool);
        m_doc.nodes[n].b = b;
        push(n);
    }
    [[gnu::always_inline]] inline void pushString(std::string_view s, Kind k = Kind::String) {
        if (s.size() > UINT32_MAX) fail(m_pos, "a string longer than 4 GB");
        const std::uint32_t n = make(k);
        m_doc.nodes[n].a = static_cast<std::uint32_t>(s.size());
        m_doc.nodes[n].b = static_cast<std::uint64_t>(s.data() - m_data.data());
        push(n);
    }
    // Little-endian two's-complement integer of n bytes (LONG1 / LONG4).
    void pushLong(std::string_view b, std::size_t at) {
        if (b.size() > 8) fail(at, "an integer wider than 64 bits");
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < b.size(); ++k) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[k])) << (8 * k);
        if (!b.empty() && b.size() < 8 && (static_cast<unsigned char>(b.back()) & 0x80)) v |= ~std::uint64_t{0} << (8 * b.size());
        std::int64_t s = 0;
        std::memcpy(&s, &v, sizeof s);
        pushInt(s);
    }
    // Memo keys are small and dense in every pickle Python writes; a hostile far-off key goes
    // to the map instead of growing the vector to it.
    [[gnu::always_inline]] inline void memoPut(std::uint64_t key, std::size_t at) {
        const std::uint32_t v = top(at);
        if (key < m_memo.size() + 4096) {
            if (key == m_memo.size()) m_memo.push_back(kNoNode);
            else if (key > m_memo.size()) m_memo.resize(key + 1, kNoNode);
            m_memoCount += m_memo[key] == kNoNode;
            m_memo[key] = v;
        } else {
            m_memoCount += m_farMemo.emplace(key, v).second;
            m_farMemo[key] = v;
        }
    }
    [[gnu::always_inline]] inline void memoGet(std::uint64_t key, std::size_t at) {
        std::uint32_t v = kNoNode;
        if (key < m_memo.size()) v = m_memo[key];
        else if (auto it = m_farMemo.find(key); it != m_farMemo.end()) v = it->second;
        if (v == kNoNode) fail(at, "a memo reference to an entry that was never stored");
        push(v);
    }
    // Moves the stack's values from `first` up into container node n. Values go to one shared
    // array; a container filled in several batches (APPENDS of 1,000 at a time) gets a chain
    // of segments, made contiguous once the whole pickle is read.
    [[gnu::always_inline]] inline void moveIntoContainer(std::uint32_t n, std::size_t first, std::size_t at) {
        const std::size_t count = m_stack.size() - first;
        if (count == 0) return;
        if (m_doc.items.size() + count > UINT32_MAX) fail(at, "more than 4 billion values");
        Chain& c = m_chains[m_doc.nodes[n].a];
        const auto begin = static_cast<std::uint32_t>(m_doc.items.size());
        m_doc.items.resize(begin + count);
        std::uint32_t* into = m_doc.items.data() + begin;
        for (std::size_t k = first; k < m_stack.size(); ++k) *into++ = m_stack[k];  // a few at a time: no memmove call
        m_stack.resize(first);
        c.count += static_cast<std::uint32_t>(count);
        if (c.tail != kNoNode && m_segments[c.tail].begin + m_segments[c.tail].count == begin) {
            m_segments[c.tail].count += static_cast<std::uint32_t>(count);  // nothing came between: the same segment
            return;
        }
        m_segments.push_back({begin, static_cast<std::uint32_t>(count), kNoNode});
        const auto segment = static_cast<std::uint32_t>(m_segments.size() - 1);
        (c.tail == kNoNode ? c.head : m_segments[c.tail].next) = segment;
        c.tail = segment;
    }
    [[gnu::always_inline]] inline void setItems(std::uint32_t dict, std::size_t first, std::size_t at) {
        if (m_doc.nodes[dict].kind != Kind::Dict) fail(at, "SETITEM(S) on something that is not a dict");
        if ((m_stack.size() - first) % 2 != 0) fail(at, "SETITEMS with an odd number of values");
        moveIntoContainer(dict, first, at);
    }
    [[gnu::always_inline]] inline void appendItems(std::uint32_t list, std::size_t first, std::size_t at) {
        const Kind k = m_doc.nodes[list].kind;
        if (k != Kind::List && k != Kind::Set) fail(at, "APPEND(S) on something that is not a list");
        moveIntoContainer(list, first, at);
    }

public:
    // Every container's values made one span of the array (copied to its end when they came
    // in several batches): time linear in the values.
    void finish() {
        m_doc.nodes.resize(m_nodeCount);
        m_doc.spans.resize(m_chains.size());
        for (std::size_t i = 0; i < m_chains.size(); ++i) {
            const Chain& c = m_chains[i];
            if (c.head == kNoNode) continue;
            if (c.head == c.tail) {
                m_doc.spans[i] = {m_segments[c.head].begin, c.count};
                continue;
            }
            if (m_doc.items.size() + c.count > UINT32_MAX) fail(m_pos, "more than 4 billion values");
            m_doc.spans[i] = {static_cast<std::uint32_t>(m_doc.items.size()), c.count};
            for (std::uint32_t s = c.head; s != kNoNode; s = m_segments[s].next)
                for (std::uint32_t k = 0; k < m_segments[s].count; ++k) m_doc.items.push_back(m_doc.items[m_segments[s].begin + k]);
        }
        m_chains = {};
        m_segments = {};
    }

private:

    // Every opcode passes here: its helpers are inlined into it, messages kept out of line.
    [[gnu::always_inline]] inline void step(unsigned char op, std::size_t at) {
        switch (op) {
            case 0x80: {  // PROTO
                const auto v = le(1, at);
                if (v > 5) fail(at, "pickle protocol " + std::to_string(v) + " (expected 2 to 5)");
                return;
            }
            case 0x95: le(8, at); return;  // FRAME: a length hint only
            case '(': m_marks.push_back(m_stack.size()); return;  // MARK
            case '0': pop(at); return;                           // POP
            case '1': m_stack.resize(popMark(at)); return;       // POP_MARK
            case '2': push(top(at)); return;                     // DUP
            case 'N': push(make(Kind::None)); return;
            case 0x88: case 0x89: pushBool(op == 0x88); return;  // NEWTRUE, NEWFALSE
            case 'J': {  // BININT
                const auto v = static_cast<std::uint32_t>(le(4, at));
                std::int32_t s = 0;
                std::memcpy(&s, &v, sizeof s);
                pushInt(s);
                return;
            }
            case 'K': pushInt(static_cast<std::int64_t>(le(1, at))); return;  // BININT1
            case 'M': pushInt(static_cast<std::int64_t>(le(2, at))); return;  // BININT2
            case 0x8a: pushLong(take(le(1, at), at), at); return;            // LONG1
            case 0x8b: {                                                     // LONG4
                const auto n = le(4, at);
                pushLong(take(n, at), at);
                return;
            }
            case 'I': case 'L': pushTextInt(at); return;  // INT, LONG (text)
            case 'G': pushBinFloat(at); return;            // BINFLOAT
            case 'F': pushTextFloat(at); return;           // FLOAT (text)
            case 'X': pushString(take(le(4, at), at)); return;     // BINUNICODE
            case 0x8c: pushString(take(le(1, at), at)); return;    // SHORT_BINUNICODE
            case 0x8d: pushString(take(le(8, at), at)); return;    // BINUNICODE8
            case 'V': pushString(line(at)); return;                // UNICODE (raw-unicode-escape; ASCII kept as is)
            case 'T': pushString(take(le(4, at), at), Kind::Bytes); return;  // BINSTRING
            case 'U': pushString(take(le(1, at), at), Kind::Bytes); return;  // SHORT_BINSTRING
            case 'B': pushString(take(le(4, at), at), Kind::Bytes); return;  // BINBYTES
            case 'C': pushString(take(le(1, at), at), Kind::Bytes); return;  // SHORT_BINBYTES
            case 0x8e: pushString(take(le(8, at), at), Kind::Bytes); return; // BINBYTES8
            case 'S': {  // STRING (quoted text)
                std::string_view t = line(at);
                if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front()) t = t.substr(1, t.size() - 2);
                pushString(t, Kind::Bytes);
                return;
            }
            case '}': push(make(Kind::Dict)); return;   // EMPTY_DICT
            case ']': push(make(Kind::List)); return;   // EMPTY_LIST
            case ')': push(make(Kind::Tuple)); return;  // EMPTY_TUPLE
            case 0x8f: push(make(Kind::Set)); return;   // EMPTY_SET
            case 'd': {  // DICT
                const std::size_t first = popMark(at);
                const std::uint32_t d = make(Kind::Dict);
                setItems(d, first, at);
                push(d);
                return;
            }
            case 'l': case 't': case 0x91: {  // LIST, TUPLE, FROZENSET
                const std::size_t first = popMark(at);
                const std::uint32_t n = make(op == 'l' ? Kind::List : op == 't' ? Kind::Tuple : Kind::Set);
                moveIntoContainer(n, first, at);
                push(n);
                return;
            }
            case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
                const std::size_t n = static_cast<std::size_t>(op - 0x84);
                std::uint32_t items[3];
                for (std::size_t k = n; k-- > 0;) items[k] = pop(at);
                const std::uint32_t t = make(Kind::Tuple);
                const std::size_t first = m_stack.size();
                for (std::size_t k = 0; k < n; ++k) m_stack.push_back(items[k]);
                moveIntoContainer(t, first, at);
                push(t);
                return;
            }
            case 's': {  // SETITEM
                const std::uint32_t v = pop(at), k = pop(at);
                const std::uint32_t d = top(at);
                push(k);
                push(v);
                setItems(d, m_stack.size() - 2, at);
                return;
            }
            case 'u': {  // SETITEMS
                const std::size_t first = popMark(at);
                if (first == 0) fail(at, "an opcode needs a value but the pickle stack is empty");
                setItems(m_stack[first - 1], first, at);
                return;
            }
            case 'a': {  // APPEND
                const std::uint32_t v = pop(at);
                const std::uint32_t l = top(at);
                push(v);
                appendItems(l, m_stack.size() - 1, at);
                return;
            }
            case 'e': case 0x90: {  // APPENDS, ADDITEMS
                const std::size_t first = popMark(at);
                if (first == 0) fail(at, "an opcode needs a value but the pickle stack is empty");
                appendItems(m_stack[first - 1], first, at);
                return;
            }
            case 'q': memoPut(le(1, at), at); return;  // BINPUT
            case 'r': memoPut(le(4, at), at); return;  // LONG_BINPUT
            case 0x94: memoPut(m_memoCount, at); return;  // MEMOIZE (Python: at len(memo))
            case 'p': memoPut(textMemoIndex("PUT", at), at); return;  // PUT
            case 'h': memoGet(le(1, at), at); return;  // BINGET
            case 'j': memoGet(le(4, at), at); return;  // LONG_BINGET
            case 'g': memoGet(textMemoIndex("GET", at), at); return;  // GET
            default: refuseOpcode(op, at);
        }
    }

    // Protocol 0's opcodes, whose argument is a line of text: rare, kept out of the loop.
    // INT and LONG ("01"/"00" are True/False).
    [[gnu::noinline]] void pushTextInt(std::size_t at) {
        std::string_view t = line(at);
        if (!t.empty() && t.back() == 'L') t.remove_suffix(1);
        if (t == "01" || t == "00") {
            pushBool(t == "01");
            return;
        }
        try {
            std::size_t used = 0;
            const long long v = std::stoll(std::string(t), &used);
            if (used != t.size()) throw std::invalid_argument("trailing");
            pushInt(v);
        } catch (const std::exception&) {
            fail(at, "INT opcode with \"" + std::string(t.substr(0, 40)) + "\", not a 64-bit integer");
        }
    }
    [[gnu::noinline]] void pushTextFloat(std::size_t at) {
        const std::string t(line(at));
        double f = 0;
        try {
            f = std::stod(t);
        } catch (const std::exception&) {
            fail(at, "FLOAT opcode with \"" + t.substr(0, 40) + "\", not a number");
        }
        const std::uint32_t n = make(Kind::Float);
        std::memcpy(&m_doc.nodes[n].b, &f, sizeof f);
        push(n);
    }
    // PUT's and GET's memo index.
    [[gnu::noinline]] std::uint64_t textMemoIndex(const char* opcode, std::size_t at) {
        const std::string t(line(at));
        try {
            return std::stoull(t);
        } catch (const std::invalid_argument&) {
            fail(at, opcode + std::string(" with \"") + t.substr(0, 40) + "\", not a memo index");
        } catch (const std::out_of_range&) {
            fail(at, opcode + std::string(" with \"") + t.substr(0, 40) + "\", not a memo index");
        }
    }

    // BINFLOAT: a big-endian double.
    [[gnu::always_inline]] inline void pushBinFloat(std::size_t at) {
        const std::string_view b = take(8, at);
        std::uint64_t v = 0;
        for (char c : b) v = (v << 8) | static_cast<unsigned char>(c);
        const std::uint32_t n = make(Kind::Float);
        m_doc.nodes[n].b = v;
        push(n);
    }

    // Opcodes that import, call or construct (a data file has no business using them), and
    // bytes that are no opcode.
    [[noreturn, gnu::cold, gnu::noinline]] void refuseOpcode(unsigned char op, std::size_t at) const {
        switch (op) {
            case 'c': refuse(at, "GLOBAL", "imports a Python name");
            case 0x93: refuse(at, "STACK_GLOBAL", "imports a Python name");
            case 'R': refuse(at, "REDUCE", "calls a function");
            case 'b': refuse(at, "BUILD", "calls __setstate__ on an object");
            case 'i': refuse(at, "INST", "imports a class and calls it");
            case 'o': refuse(at, "OBJ", "calls a class");
            case 0x81: refuse(at, "NEWOBJ", "calls a class");
            case 0x92: refuse(at, "NEWOBJ_EX", "calls a class");
            case 0x82: case 0x83: case 0x84: refuse(at, "EXT", "imports a registered Python name");
            case 'P': refuse(at, "PERSID", "asks the reader to look up an external object");
            case 'Q': refuse(at, "BINPERSID", "asks the reader to look up an external object");
            case 0x96: case 0x97: case 0x98: refuse(at, "buffer opcode", "refers to out-of-band buffers");
            default: {
                char buf[8];
                std::snprintf(buf, sizeof buf, "0x%02x", op);
                fail(at, std::string("unknown pickle opcode ") + buf + " (this is not a pickle Faultline reads)");
            }
        }
    }

    [[noreturn, gnu::cold, gnu::noinline]] void refuse(std::size_t at, const char* name, const char* what) const {
        fail(at, std::string("refused pickle opcode ") + name + ": it " + what + "; a data dump never needs to, so the file is not read");
    }

    PickleData& m_doc;
    std::string_view m_data;
    const std::string& m_name;
    std::size_t m_pos = 0;
    IdStack m_stack;
    std::vector<std::size_t> m_marks;
    std::vector<std::uint32_t> m_memo;
    std::unordered_map<std::uint64_t, std::uint32_t> m_farMemo;
    std::uint64_t m_memoCount = 0;
    struct Chain {
        std::uint32_t head = kNoNode, tail = kNoNode, count = 0;
    };
    struct Segment {
        std::uint32_t begin = 0, count = 0, next = kNoNode;
    };
    std::vector<Chain> m_chains;  // by container index
    std::size_t m_nodeCount = 0;  // nodes in use: m_doc.nodes grows ahead, cut to this at the end
    std::vector<Segment> m_segments;
};

}  // namespace

std::uint32_t unpickle(PickleData& doc, const std::string& name) {
    Unpickler u(doc, name);
    const std::uint32_t root = u.run();
    u.finish();
    return root;
}

}  // namespace faultline
