#include "pickle_reader.h"

#include "model/error.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <variant>
#include <vector>

namespace faultline {

namespace {

// Pickle values; containers are shared so that memo references (BINGET) are cheap and a
// list filled after it was memoised is the same list wherever it is referenced.
struct Node;
using NodePtr = std::shared_ptr<Node>;
struct Node {
    enum class Kind : std::uint8_t { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict, Set } kind = Kind::None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<NodePtr> items;                       // List, Tuple, Set
    std::vector<std::pair<NodePtr, NodePtr>> entries;  // Dict, in insertion order
};

constexpr std::size_t kMaxDepth = 200;
constexpr std::size_t kMaxStack = 1u << 24;

class Unpickler {
public:
    Unpickler(std::string_view data, const std::string& name) : m_data(data), m_name(name) {}
    // A hostile pickle can make a list contain itself; emptying every container breaks such
    // cycles so that shared ownership frees them.
    ~Unpickler() {
        for (const NodePtr& n : m_containers) {
            n->items.clear();
            n->entries.clear();
        }
    }
    Unpickler(const Unpickler&) = delete;
    Unpickler& operator=(const Unpickler&) = delete;

    NodePtr run() {
        for (;;) {
            if (m_pos >= m_data.size()) fail(m_pos, "the pickle ends before its STOP opcode (the file is cut short)");
            const std::size_t at = m_pos;
            const auto op = static_cast<unsigned char>(m_data[m_pos++]);
            if (op == '.') {  // STOP
                if (m_stack.size() != 1) fail(at, "STOP with " + std::to_string(m_stack.size()) + " values on the stack (expected 1)");
                return pop(at);
            }
            step(op, at);
            if (m_stack.size() > kMaxStack) fail(at, "more than 16 million values on the pickle stack");
        }
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& what) const {
        throw Error(m_name + ": byte " + std::to_string(at) + ": " + what);
    }

    std::string_view take(std::size_t n, std::size_t at) {
        if (n > m_data.size() - m_pos) fail(at, "the pickle ends inside an opcode's argument (the file is cut short)");
        const std::string_view v = m_data.substr(m_pos, n);
        m_pos += n;
        return v;
    }
    std::uint64_t le(std::size_t n, std::size_t at) {
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

    NodePtr pop(std::size_t at) {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() == m_marks.back()))
            fail(at, "an opcode needs a value but the pickle stack is empty");
        NodePtr v = std::move(m_stack.back());
        m_stack.pop_back();
        return v;
    }
    NodePtr& top(std::size_t at) {
        if (m_stack.empty()) fail(at, "an opcode needs a value but the pickle stack is empty");
        return m_stack.back();
    }
    std::vector<NodePtr> popToMark(std::size_t at) {
        if (m_marks.empty()) fail(at, "an opcode needs a MARK but there is none");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<NodePtr> out(std::make_move_iterator(m_stack.begin() + static_cast<std::ptrdiff_t>(mark)), std::make_move_iterator(m_stack.end()));
        m_stack.resize(mark);
        return out;
    }
    NodePtr make(Node::Kind k) {
        auto n = std::make_shared<Node>();
        n->kind = k;
        if (k == Node::Kind::List || k == Node::Kind::Tuple || k == Node::Kind::Dict || k == Node::Kind::Set) m_containers.push_back(n);
        return n;
    }
    void push(NodePtr n) { m_stack.push_back(std::move(n)); }
    void pushInt(std::int64_t v) {
        NodePtr n = make(Node::Kind::Int);
        n->i = v;
        push(std::move(n));
    }
    void pushString(std::string_view s, Node::Kind k = Node::Kind::String) {
        NodePtr n = make(k);
        n->s.assign(s);
        push(std::move(n));
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
    void memoPut(std::uint64_t key, std::size_t at) { m_memo[key] = top(at); }
    void memoGet(std::uint64_t key, std::size_t at) {
        auto it = m_memo.find(key);
        if (it == m_memo.end()) fail(at, "a memo reference to an entry that was never stored");
        push(it->second);
    }
    void setItems(NodePtr& dict, std::vector<NodePtr>& kv, std::size_t at) {
        if (dict->kind != Node::Kind::Dict) fail(at, "SETITEM(S) on something that is not a dict");
        if (kv.size() % 2 != 0) fail(at, "SETITEMS with an odd number of values");
        for (std::size_t k = 0; k < kv.size(); k += 2) dict->entries.emplace_back(std::move(kv[k]), std::move(kv[k + 1]));
    }
    void appendItems(NodePtr& list, std::vector<NodePtr>& items, std::size_t at) {
        if (list->kind != Node::Kind::List && list->kind != Node::Kind::Set) fail(at, "APPEND(S) on something that is not a list");
        for (NodePtr& n : items) list->items.push_back(std::move(n));
    }

    void step(unsigned char op, std::size_t at) {
        switch (op) {
            case 0x80: {  // PROTO
                const auto v = le(1, at);
                if (v > 5) fail(at, "pickle protocol " + std::to_string(v) + " (expected 2 to 5)");
                return;
            }
            case 0x95: le(8, at); return;  // FRAME: a length hint only
            case '(': m_marks.push_back(m_stack.size()); return;  // MARK
            case '0': pop(at); return;                           // POP
            case '1': popToMark(at); return;                     // POP_MARK
            case '2': push(top(at)); return;                     // DUP
            case 'N': push(make(Node::Kind::None)); return;
            case 0x88: case 0x89: {  // NEWTRUE, NEWFALSE
                NodePtr n = make(Node::Kind::Bool);
                n->b = op == 0x88;
                push(std::move(n));
                return;
            }
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
            case 'I': case 'L': {  // INT, LONG (text; "01"/"00" are True/False in protocol 0)
                std::string_view t = line(at);
                if (!t.empty() && t.back() == 'L') t.remove_suffix(1);
                if (t == "01" || t == "00") {
                    NodePtr n = make(Node::Kind::Bool);
                    n->b = t == "01";
                    push(std::move(n));
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
                return;
            }
            case 'G': {  // BINFLOAT, big-endian
                const std::string_view b = take(8, at);
                std::uint64_t v = 0;
                for (char c : b) v = (v << 8) | static_cast<unsigned char>(c);
                NodePtr n = make(Node::Kind::Float);
                std::memcpy(&n->f, &v, sizeof v);
                push(std::move(n));
                return;
            }
            case 'F': {  // FLOAT (text)
                const std::string t(line(at));
                NodePtr n = make(Node::Kind::Float);
                try {
                    n->f = std::stod(t);
                } catch (const std::exception&) {
                    fail(at, "FLOAT opcode with \"" + t.substr(0, 40) + "\", not a number");
                }
                push(std::move(n));
                return;
            }
            case 'X': pushString(take(le(4, at), at)); return;     // BINUNICODE
            case 0x8c: pushString(take(le(1, at), at)); return;    // SHORT_BINUNICODE
            case 0x8d: pushString(take(le(8, at), at)); return;    // BINUNICODE8
            case 'V': pushString(line(at)); return;                // UNICODE (raw-unicode-escape; ASCII kept as is)
            case 'T': pushString(take(le(4, at), at), Node::Kind::Bytes); return;  // BINSTRING
            case 'U': pushString(take(le(1, at), at), Node::Kind::Bytes); return;  // SHORT_BINSTRING
            case 'B': pushString(take(le(4, at), at), Node::Kind::Bytes); return;  // BINBYTES
            case 'C': pushString(take(le(1, at), at), Node::Kind::Bytes); return;  // SHORT_BINBYTES
            case 0x8e: pushString(take(le(8, at), at), Node::Kind::Bytes); return; // BINBYTES8
            case 'S': {  // STRING (quoted text)
                std::string_view t = line(at);
                if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front()) t = t.substr(1, t.size() - 2);
                pushString(t, Node::Kind::Bytes);
                return;
            }
            case '}': push(make(Node::Kind::Dict)); return;   // EMPTY_DICT
            case ']': push(make(Node::Kind::List)); return;   // EMPTY_LIST
            case ')': push(make(Node::Kind::Tuple)); return;  // EMPTY_TUPLE
            case 0x8f: push(make(Node::Kind::Set)); return;   // EMPTY_SET
            case 'd': {  // DICT
                std::vector<NodePtr> kv = popToMark(at);
                NodePtr d = make(Node::Kind::Dict);
                setItems(d, kv, at);
                push(std::move(d));
                return;
            }
            case 'l': case 't': case 0x91: {  // LIST, TUPLE, FROZENSET
                NodePtr n = make(op == 'l' ? Node::Kind::List : op == 't' ? Node::Kind::Tuple : Node::Kind::Set);
                n->items = popToMark(at);
                push(std::move(n));
                return;
            }
            case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
                const std::size_t n = static_cast<std::size_t>(op - 0x84);
                NodePtr t = make(Node::Kind::Tuple);
                t->items.resize(n);
                for (std::size_t k = n; k-- > 0;) t->items[k] = pop(at);
                push(std::move(t));
                return;
            }
            case 's': {  // SETITEM
                NodePtr v = pop(at);
                NodePtr k = pop(at);
                std::vector<NodePtr> kv{std::move(k), std::move(v)};
                setItems(top(at), kv, at);
                return;
            }
            case 'u': {  // SETITEMS
                std::vector<NodePtr> kv = popToMark(at);
                setItems(top(at), kv, at);
                return;
            }
            case 'a': {  // APPEND
                std::vector<NodePtr> v{pop(at)};
                appendItems(top(at), v, at);
                return;
            }
            case 'e': case 0x90: {  // APPENDS, ADDITEMS
                std::vector<NodePtr> v = popToMark(at);
                appendItems(top(at), v, at);
                return;
            }
            case 'q': memoPut(le(1, at), at); return;  // BINPUT
            case 'r': memoPut(le(4, at), at); return;  // LONG_BINPUT
            case 0x94: memoPut(m_memo.size(), at); return;  // MEMOIZE
            case 'p': {                                // PUT
                const std::string t(line(at));
                try {
                    memoPut(std::stoull(t), at);
                } catch (const std::invalid_argument&) {
                    fail(at, "PUT with \"" + t.substr(0, 40) + "\", not a memo index");
                } catch (const std::out_of_range&) {
                    fail(at, "PUT with \"" + t.substr(0, 40) + "\", not a memo index");
                }
                return;
            }
            case 'h': memoGet(le(1, at), at); return;  // BINGET
            case 'j': memoGet(le(4, at), at); return;  // LONG_BINGET
            case 'g': {                                // GET
                const std::string t(line(at));
                try {
                    memoGet(std::stoull(t), at);
                } catch (const std::invalid_argument&) {
                    fail(at, "GET with \"" + t.substr(0, 40) + "\", not a memo index");
                } catch (const std::out_of_range&) {
                    fail(at, "GET with \"" + t.substr(0, 40) + "\", not a memo index");
                }
                return;
            }
            // Opcodes that import, call or construct: a data file has no business using them.
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

    [[noreturn]] void refuse(std::size_t at, const char* name, const char* what) const {
        fail(at, std::string("refused pickle opcode ") + name + ": it " + what + "; a data dump never needs to, so the file is not read");
    }

    std::string_view m_data;
    const std::string& m_name;
    std::size_t m_pos = 0;
    std::vector<NodePtr> m_stack;
    std::vector<std::size_t> m_marks;
    std::map<std::uint64_t, NodePtr> m_memo;
    std::vector<NodePtr> m_containers;
};

// Memo references let a small pickle describe a huge tree (a list of two references to a
// list of two references to ...); the budget stops that before it exhausts memory.
struct Budget {
    std::size_t left;
};

nlohmann::json toJson(const Node& n, std::size_t depth, const std::string& name, Budget& budget) {
    const std::size_t cost = 16 + n.s.size();
    if (budget.left < cost) throw Error(name + ": the pickle expands to far more values than its size allows (memo references repeated over and over)");
    budget.left -= cost;
    if (depth > kMaxDepth) throw Error(name + ": the pickle nests deeper than " + std::to_string(kMaxDepth) + " levels (or refers to itself)");
    switch (n.kind) {
        case Node::Kind::None: return nullptr;
        case Node::Kind::Bool: return n.b;
        case Node::Kind::Int: return n.i;
        case Node::Kind::Float: return std::isfinite(n.f) ? nlohmann::json(n.f) : nlohmann::json(nullptr);
        case Node::Kind::String:
        case Node::Kind::Bytes: {
            // nlohmann refuses invalid UTF-8 when dumping, not when storing; keep bytes as they are.
            return n.s;
        }
        case Node::Kind::List:
        case Node::Kind::Tuple:
        case Node::Kind::Set: {
            nlohmann::json a = nlohmann::json::array();
            for (const NodePtr& c : n.items) a.push_back(toJson(*c, depth + 1, name, budget));
            return a;
        }
        case Node::Kind::Dict: {
            nlohmann::json o = nlohmann::json::object();
            for (const auto& [k, v] : n.entries) {
                std::string key;
                if (k->kind == Node::Kind::String || k->kind == Node::Kind::Bytes) key = k->s;
                else if (k->kind == Node::Kind::Int) key = std::to_string(k->i);
                else throw Error(name + ": a dict key that is not a string or integer");
                o[key] = toJson(*v, depth + 1, name, budget);
            }
            return o;
        }
    }
    return nullptr;
}

}  // namespace

bool looksLikePickle(std::string_view data) {
    return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x80 && static_cast<unsigned char>(data[1]) >= 2 &&
           static_cast<unsigned char>(data[1]) <= 5;
}

nlohmann::json readPickle(std::string_view data, const std::string& name) {
    Unpickler u(data, name);
    const NodePtr root = u.run();
    Budget budget{64 * data.size() + (16u << 20)};  // bytes of values, roughly
    return toJson(*root, 0, name, budget);
}

}  // namespace faultline
