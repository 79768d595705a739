// How the scan works. A pickle builds each container (EMPTY_DICT, EMPTY_LIST) before its
// contents, while the container it will end up in already lies on the stack: below the last
// MARK (with the key on top when that is a dict), or, for a SETITEM or APPEND of one value,
// just below. So a container's place, and with it its role (pg_config, an entry, an entry's
// input_sizes, or nothing Faultline reads), is foreseen when it is created. When values move
// into a container (SETITEMS, APPENDS, TUPLE2 ...), every container among them must go where
// it was foreseen, else the scan gives up. A container stays on the stack until it is placed,
// and afterwards could only be reached through the memo, which the scan refuses for
// containers: once placed it is final, and its parent reads it then. What is read under a
// role is therefore exactly what the full reader's tree holds there.
//
// The full reader's other refusals are kept or made stricter: the same stack limit, nesting
// under half its limit, and the expansion budget counted over every value pushed (a bound on
// the tree it would measure, as no container is shared).
#include "importers/pytorch/flight_recorder_pickle_scanner.h"

#include "importers/pytorch/flight_recorder_group_lists.h"

#include "model/error.h"

#include <array>
#include <bit>
#include <cstring>
#include <vector>

namespace faultline {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;
constexpr std::size_t kMaxStack = 1u << 24;  // the full reader's limit
constexpr std::uint16_t kMaxDepth = 100;     // the full reader refuses past 200

struct GiveUp {};

[[noreturn, gnu::cold, gnu::noinline]] void giveUp() { throw GiveUp{}; }

enum class ValueKind : std::uint8_t { None, Bool, Int, Float, Text, Box, Unset };  // Unset: a memo slot never stored

// The keys Faultline reads, wherever they appear; worked out once for a memoised string.
enum class Key : std::uint8_t {
    Unknown,
    Other,
    Version,
    NcclVersion,
    Rank,
    PgConfig,
    PgStatus,
    Entries,
    Name,
    Desc,
    Ranks,
    LastEnqueued,
    LastStarted,
    LastCompleted,
    ProcessGroup,
    PgId,
    CollectiveSeqId,
    IsP2P,
    ProfilingName,
    InputSizes,
    InputDtypes,
    OutputSizes,
    OutputDtypes,
    State,
    TimeCreated,
    TimeStarted,
    TimeCompleted,
    P2PSeqId,
};

Key classify(std::string_view k) {
    switch (k.size()) {
        case 4: return k == "name" ? Key::Name : k == "desc" ? Key::Desc : k == "rank" ? Key::Rank : Key::Other;
        case 5: return k == "state" ? Key::State : k == "pg_id" ? Key::PgId : k == "ranks" ? Key::Ranks : Key::Other;
        case 6: return k == "is_p2p" ? Key::IsP2P : Key::Other;
        case 7: return k == "version" ? Key::Version : k == "entries" ? Key::Entries : Key::Other;
        case 9: return k == "pg_config" ? Key::PgConfig : k == "pg_status" ? Key::PgStatus : Key::Other;
        case 10: return k == "p2p_seq_id" ? Key::P2PSeqId : Key::Other;
        case 11: return k == "input_sizes" ? Key::InputSizes : Key::Other;
        case 12: return k == "input_dtypes" ? Key::InputDtypes : k == "nccl_version" ? Key::NcclVersion : k == "output_sizes" ? Key::OutputSizes : Key::Other;
        case 13: return k == "process_group" ? Key::ProcessGroup : k == "output_dtypes" ? Key::OutputDtypes : Key::Other;
        case 14: return k == "profiling_name" ? Key::ProfilingName : Key::Other;
        case 15: return k == "time_created_ns" ? Key::TimeCreated : Key::Other;
        case 17: return k == "collective_seq_id" ? Key::CollectiveSeqId : Key::Other;
        case 23: return k == "last_started_collective" ? Key::LastStarted : Key::Other;
        case 24: return k == "last_enqueued_collective" ? Key::LastEnqueued : Key::Other;
        case 25: return k == "last_completed_collective" ? Key::LastCompleted : Key::Other;
        case 26: return k == "time_discovered_started_ns" ? Key::TimeStarted : Key::Other;
        case 28: return k == "time_discovered_completed_ns" ? Key::TimeCompleted : Key::Other;
        default: return Key::Other;
    }
}

// A value on the stack or in the memo: 16 bytes, no allocation.
struct Val {
    ValueKind kind = ValueKind::None;
    Key key = Key::Unknown;  // a text's meaning as a key, once looked at
    std::uint32_t len = 0;   // a text's length; a container's box
    std::uint64_t v = 0;     // an integer (a bool: 0/1); a text's offset in the data
};


enum class Role : std::uint8_t { Ignored, Root, PgConfig, PgConfigGroup, PgStatus, PgStatusGroup, Entries, Entry, ProcessGroup, InputSizes, Tensor, InputDtypes };
enum class Shape : std::uint8_t { Dict, List, Tuple };

// A container: where it was foreseen to go, and what it is there.
struct Box {
    std::uint32_t parent = kNone;
    std::uint32_t slot = kNone;  // its scratch, by role
    std::uint32_t count = 0;     // values placed in it so far (a dict's keys and values)
    Role role = Role::Ignored;
    Shape shape = Shape::Dict;
    std::uint16_t depth = 0;
};

struct Span {
    std::uint32_t begin = 0, count = 0;
};

struct GroupScratch {  // one group of pg_config
    Val name, desc, ranks;
    std::uint32_t seen = 0;
};

struct StatusScratch {  // one group of pg_status
    FlightRecorderGroupStatus status;
    std::uint32_t seen = 0;
};

struct EntryScratch {
    Val groupName, groupDesc, profilingName, state;
    std::int64_t pgId = -1, seq = 0, p2pSeq = 0, created = 0, started = 0, completed = 0;
    std::uint32_t sizes = kNone, dtypes = kNone;  // into m_sizeLists, m_dtypeLists
    std::uint32_t outputSizes = kNone, outputDtypes = kNone;
    std::uint32_t seen = 0;
    bool p2p = false;
};

bool isList(Shape s) { return s == Shape::List || s == Shape::Tuple; }
std::uint32_t bit(Key k) { return 1u << static_cast<unsigned>(k); }

// The scan's working memory, all of it cleared for each dump but kept by its thread for the
// next: sizing it afresh for each of thousands of dumps cost the kernel's clearing of its pages.
struct Scratch {
    std::vector<Val> store;
    std::vector<std::size_t> marks;
    std::vector<Val> memo;
    std::vector<Val> items;
    std::vector<Box> boxes;
    std::vector<GroupScratch> groups;
    std::vector<StatusScratch> statuses;
    std::vector<EntryScratch> entries;
    std::vector<std::uint32_t> freeEntries;
    std::vector<std::array<Val, 2>> processGroups;
    std::vector<Span> sizeLists;
    std::vector<Span> tensors;
    std::vector<std::int64_t> dims;
    std::vector<Span> dtypeLists;
    std::vector<Val> dtypes;

    void clear() {
        marks.clear();  // memo: the scanner counts what of it holds this dump's values
        items.clear();
        boxes.clear();
        groups.clear();
        statuses.clear();
        entries.clear();
        freeEntries.clear();
        processGroups.clear();
        sizeLists.clear();
        tensors.clear();
        dims.clear();
        dtypeLists.clear();
        dtypes.clear();
        if (store.size() < 1024) store.resize(1024);  // the stack's room; what it held is not read
    }
};

class Scanner {
public:
    Scanner(std::string_view data, FlightRecorderDump& dump, FlightRecorderGroupLists& lists, bool timings, Scratch& scratch)
        : m_data(data), m_dump(dump), m_lists(lists), m_timings(timings), m_p(data.data()), m_end(data.data() + data.size()),
          m_store(scratch.store), m_marks(scratch.marks), m_memo(scratch.memo), m_items(scratch.items), m_boxes(scratch.boxes),
          m_groups(scratch.groups), m_statuses(scratch.statuses), m_entries(scratch.entries), m_freeEntries(scratch.freeEntries),
          m_processGroups(scratch.processGroups), m_sizeLists(scratch.sizeLists), m_tensors(scratch.tensors), m_dims(scratch.dims),
          m_dtypeLists(scratch.dtypeLists), m_dtypes(scratch.dtypes) {
        scratch.clear();
        m_base = m_top = m_store.data();
        m_cap = m_base + m_store.size();
        // Sized once from the data (a few bytes of opcodes for each): growing them copies
        // them again and again, which showed in profiles as much as the reading itself.
        m_boxes.reserve(data.size() / 16);
        if (m_memo.size() < data.size() / 16) m_memo.resize(data.size() / 16);
    }

    void run() {
        for (;;) {
            if (m_p >= m_end) giveUp();
            const auto op = static_cast<unsigned char>(*m_p++);
            switch (op) {
                case 'q': memoPut(le<1>()); break;  // BINPUT
                case 'r': memoPut(le<4>()); break;  // LONG_BINPUT
                case 0x94: memoPut(m_memoCount); break;  // MEMOIZE
                case '(':  // MARK
                    m_marks.push_back(size());
                    if (m_top != m_base && m_top[-1].kind == ValueKind::Box && isEntry(m_boxes[m_top[-1].len])) readEntryFields(m_top[-1].len);
                    break;
                case '}': newBox(Shape::Dict); break;
                case ']': newBox(Shape::List); break;
                case ')': newBox(Shape::Tuple); break;
                case 'u': {  // SETITEMS
                    const std::size_t first = popMark();
                    if (first == 0 || (size() - first) % 2 != 0) giveUp();
                    place(target(first - 1, Shape::Dict), m_base + first, size() - first);
                    m_top = m_base + first;
                    break;
                }
                case 'e': {  // APPENDS
                    const std::size_t first = popMark();
                    if (first == 0) giveUp();
                    place(target(first - 1, Shape::List), m_base + first, size() - first);
                    m_top = m_base + first;
                    break;
                }
                case 's': {  // SETITEM
                    const Val v = pop(), k = pop();
                    if (size() == 0) giveUp();
                    const Val pair[2] = {k, v};
                    place(target(size() - 1, Shape::Dict), pair, 2);
                    break;
                }
                case 'a': {  // APPEND
                    const Val v = pop();
                    if (size() == 0) giveUp();
                    place(target(size() - 1, Shape::List), &v, 1);
                    break;
                }
                case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
                    Val items[3];
                    const std::size_t n = static_cast<std::size_t>(op - 0x84);
                    for (std::size_t k = n; k-- > 0;) items[k] = pop();
                    fromItems(Shape::Tuple, items, n);
                    break;
                }
                case 't': case 'l': case 'd': {  // TUPLE, LIST, DICT: the values above the MARK
                    const std::size_t first = popMark();
                    const std::size_t n = size() - first;
                    if (op == 'd' && n % 2 != 0) giveUp();
                    m_items.assign(m_base + first, m_top);
                    m_top = m_base + first;
                    fromItems(op == 't' ? Shape::Tuple : op == 'l' ? Shape::List : Shape::Dict, m_items.data(), n);
                    break;
                }
                case '0': pop(); break;               // POP
                case '1': m_top = m_base + popMark(); break;  // POP_MARK
                case 0x80:                            // PROTO
                    if (le<1>() > 5) giveUp();
                    break;
                case 0x95: le<8>(); break;  // FRAME
                case '.':                 // STOP
                    if (size() != 1) giveUp();
                    finish();
                    return;
                default: {  // a number, a text, None ...: anything else the full reader takes from here (or refuses)
                    Val v;
                    if (!scalar(op, v)) giveUp();
                    push(v);
                }
            }
        }
    }

private:
    // ---- reading the opcodes' arguments
    std::string_view take(std::size_t n) {
        if (n > static_cast<std::size_t>(m_end - m_p)) giveUp();
        const std::string_view v(m_p, n);
        m_p += n;
        return v;
    }
    template <std::size_t N>
    [[gnu::always_inline]] std::uint64_t le() {
        if (N > static_cast<std::size_t>(m_end - m_p)) giveUp();
        const auto* b = reinterpret_cast<const unsigned char*>(m_p);
        m_p += N;
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < N; ++k) v |= static_cast<std::uint64_t>(b[k]) << (8 * k);
        return v;
    }

    // ---- the stack
    // Every opcode pushes one value at most, and a text pushed afresh lies in the data: what
    // the full reader's expansion check would count is at most 17 bytes a byte of data, plus
    // the texts pushed again from the memo.
    [[gnu::always_inline]] void push(const Val& v) {
        if (m_top == m_cap) [[unlikely]]
            grow();
        *m_top++ = v;
    }
    [[gnu::noinline]] void grow() {
        const std::size_t n = size();
        if (n >= kMaxStack) giveUp();
        m_store.resize(m_store.size() * 2);
        m_base = m_store.data();
        m_top = m_base + n;
        m_cap = m_base + m_store.size();
    }
    std::size_t size() const { return static_cast<std::size_t>(m_top - m_base); }
    Val pop() {
        if (m_top == m_base || (!m_marks.empty() && size() == m_marks.back())) giveUp();
        return *--m_top;
    }
    std::size_t popMark() {
        if (m_marks.empty()) giveUp();
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        return mark;
    }
    // The container at stack[i], which must be a dict (SETITEMS) or a list (APPENDS).
    std::uint32_t target(std::size_t i, Shape shape) const {
        const Val& t = m_base[i];
        if (t.kind != ValueKind::Box || m_boxes[t.len].shape != shape) giveUp();
        return t.len;
    }
    [[gnu::always_inline]] void memoPut(std::uint64_t key) {
        if (m_top == m_base) giveUp();
        const Val& v = m_top[-1];
        if (key == m_memoSize) [[likely]] {  // as every pickler numbers them
            remember(v);
            return;
        }
        if (key >= m_memoSize + 4096) giveUp();  // a far-off key: the full reader's map
        while (m_memoSize <= key) nextMemoSlot() = Val{ValueKind::Unset};
        Val& slot = m_memo[key];
        m_memoCount += slot.kind == ValueKind::Unset;
        slot = v;
    }

    // ---- values that are no container
    // The value an opcode (already read) pushes when it is a number, a text (where it lies in
    // the data), None, a bool or a memoised one of those; false for any other opcode, and for
    // a memo slot holding a container or nothing.
    [[gnu::always_inline]] bool scalar(unsigned op, Val& v) {
        switch (op) {
            case 'h': return fromMemo(le<1>(), v);    // BINGET
            case 'j': return fromMemo(le<4>(), v);    // LONG_BINGET
            case 0x8c: return textAt(le<1>(), v);     // SHORT_BINUNICODE
            case 'X': return textAt(le<4>(), v);      // BINUNICODE
            case 0x8d: return textAt(le<8>(), v);     // BINUNICODE8
            case 'T': case 'B': return textAt(le<4>(), v);  // BINSTRING, BINBYTES
            case 'U': case 'C': return textAt(le<1>(), v);  // SHORT_BINSTRING, SHORT_BINBYTES
            case 0x8e: return textAt(le<8>(), v);           // BINBYTES8
            case 'K': v = {ValueKind::Int, Key::Unknown, 0, le<1>()}; return true;  // BININT1
            case 'M': v = {ValueKind::Int, Key::Unknown, 0, le<2>()}; return true;  // BININT2
            case 'J': {                                                        // BININT
                const auto u = static_cast<std::uint32_t>(le<4>());
                std::int32_t s = 0;
                std::memcpy(&s, &u, sizeof s);
                v = {ValueKind::Int, Key::Unknown, 0, static_cast<std::uint64_t>(static_cast<std::int64_t>(s))};
                return true;
            }
            case 0x8a: return longAt(le<1>(), v);  // LONG1
            case 0x8b: return longAt(le<4>(), v);  // LONG4
            case 'G':                              // BINFLOAT: no float is read
                take(8);
                v = {ValueKind::Float, Key::Unknown, 0, 0};
                return true;
            case 'N': v = {ValueKind::None, Key::Unknown, 0, 0}; return true;
            case 0x88: v = {ValueKind::Bool, Key::Unknown, 0, 1}; return true;
            case 0x89: v = {ValueKind::Bool, Key::Unknown, 0, 0}; return true;
            default: return false;
        }
    }
    [[gnu::always_inline]] bool textAt(std::uint64_t n, Val& v) {
        if (n > static_cast<std::size_t>(m_end - m_p)) giveUp();
        v = {ValueKind::Text, Key::Unknown, static_cast<std::uint32_t>(n), static_cast<std::uint64_t>(m_p - m_data.data())};
        m_p += n;
        return true;
    }
    bool longAt(std::uint64_t n, Val& v) {  // little-endian two's complement
        if (n > 8) return false;
        const std::string_view b = take(static_cast<std::size_t>(n));
        std::uint64_t x = 0;
        for (std::size_t k = 0; k < b.size(); ++k) x |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[k])) << (8 * k);
        if (!b.empty() && b.size() < 8 && (static_cast<unsigned char>(b.back()) & 0x80)) x |= ~std::uint64_t{0} << (8 * b.size());
        v = {ValueKind::Int, Key::Unknown, 0, x};
        return true;
    }
    // A memoised text is classified as a key once, in its slot: keys are read from the memo
    // again and again.
    [[gnu::always_inline]] bool fromMemo(std::uint64_t key, Val& v) {
        if (key >= m_memoSize) return false;
        Val& m = m_memo[key];
        if (m.kind >= ValueKind::Box) return false;  // a shared container, or never stored
        if (m.kind == ValueKind::Text) {
            m_memoText += m.len;
            if (m.key == Key::Unknown) m.key = classify(text(m));
        }
        v = m;
        return true;
    }

    std::string_view text(const Val& v) const { return m_data.substr(static_cast<std::size_t>(v.v), v.len); }
    [[gnu::always_inline]] Key keyOf(Val& v) const {
        if (v.kind != ValueKind::Text) return Key::Other;
        if (v.key == Key::Unknown) v.key = classify(text(v));
        return v.key;
    }
    // Text as the full reader's Field::text gives it: text as is, an integer spelt out.
    std::string_view textOf(const Val& v, std::string& spelt) const {
        if (v.kind == ValueKind::Text) return text(v);
        if (v.kind == ValueKind::Int) return spelt = std::to_string(static_cast<std::int64_t>(v.v));
        return {};
    }

    // ---- containers
    void newBox(Shape shape) {
        std::uint32_t parent = kNone;
        Key key = Key::Other;
        const std::size_t size = this->size();
        Val* const stack = m_base;
        const std::size_t floor = m_marks.empty() ? 0 : m_marks.back();  // values from here lie above the last MARK
        bool found = false;
        if (!m_marks.empty() && floor >= 1 && stack[floor - 1].kind == ValueKind::Box) {
            const std::uint32_t p = stack[floor - 1].len;
            if (m_boxes[p].shape == Shape::Dict && (size - floor) % 2 == 1) {
                parent = p, key = keyOf(stack[size - 1]), found = true;
            } else if (m_boxes[p].shape == Shape::List) {
                parent = p, found = true;
            }
        }
        if (!found && size >= 1 && size - 1 >= floor && stack[size - 1].kind == ValueKind::Box && m_boxes[stack[size - 1].len].shape == Shape::List) {
            parent = stack[size - 1].len, found = true;  // APPEND of one value
        } else if (!found && size >= 2 && size - 2 >= floor && stack[size - 2].kind == ValueKind::Box &&
                   m_boxes[stack[size - 2].len].shape == Shape::Dict) {
            parent = stack[size - 2].len, key = keyOf(stack[size - 1]), found = true;  // SETITEM of one pair
        }
        Box b;
        b.shape = shape;
        if (found) {
            const Box& p = m_boxes[parent];
            b.parent = parent;
            b.depth = static_cast<std::uint16_t>(p.depth + 1);
            b.role = childRole(p.role, key);
        } else if (size == 0 && m_marks.empty() && m_root == kNone) {
            b.role = Role::Root;
        } else {
            giveUp();
        }
        if (b.depth > kMaxDepth) giveUp();
        const auto id = static_cast<std::uint32_t>(m_boxes.size());
        switch (b.role) {
            case Role::Root: m_root = id; break;
            case Role::PgConfig: claim(m_pgConfig, id); break;
            case Role::PgStatus: claim(m_pgStatus, id); break;
            case Role::Entries: claim(m_entriesBox, id); break;
            case Role::PgConfigGroup: b.slot = add(m_groups); break;
            case Role::PgStatusGroup: b.slot = add(m_statuses); break;
            case Role::Entry:  // a slot freed by an entry already kept, if any: a batch of entries at a time
                if (m_freeEntries.empty()) {
                    b.slot = add(m_entries);
                } else {
                    b.slot = m_freeEntries.back();
                    m_freeEntries.pop_back();
                    m_entries[b.slot] = EntryScratch();
                }
                break;
            case Role::ProcessGroup: b.slot = add(m_processGroups); break;
            case Role::InputSizes: b.slot = add(m_sizeLists, m_tensors.size()); break;
            case Role::Tensor: b.slot = add(m_tensors, m_dims.size()); break;
            case Role::InputDtypes: b.slot = add(m_dtypeLists, m_dtypes.size()); break;
            case Role::Ignored: break;
        }
        m_boxes.push_back(b);
        push({ValueKind::Box, Key::Unknown, id, 0});
    }
    template <typename T>
    static std::uint32_t add(std::vector<T>& v) {
        v.emplace_back();
        return static_cast<std::uint32_t>(v.size() - 1);
    }
    static std::uint32_t add(std::vector<Span>& v, std::size_t begin) {  // a list whose items will follow at `begin`
        v.push_back({static_cast<std::uint32_t>(begin), 0});
        return static_cast<std::uint32_t>(v.size() - 1);
    }
    static void claim(std::uint32_t& holder, std::uint32_t id) {
        if (holder != kNone) giveUp();  // a second pg_config (a repeated key): the last one would win
        holder = id;
    }
    static Role childRole(Role parent, Key key) {
        switch (parent) {
            case Role::Root: return key == Key::PgConfig ? Role::PgConfig : key == Key::PgStatus ? Role::PgStatus : key == Key::Entries ? Role::Entries : Role::Ignored;
            case Role::PgConfig: return Role::PgConfigGroup;
            case Role::PgStatus: return Role::PgStatusGroup;
            case Role::Entries: return Role::Entry;
            case Role::Entry:
                return key == Key::ProcessGroup                                ? Role::ProcessGroup
                       : key == Key::InputSizes || key == Key::OutputSizes   ? Role::InputSizes
                       : key == Key::InputDtypes || key == Key::OutputDtypes ? Role::InputDtypes
                                                                             : Role::Ignored;
            case Role::InputSizes: return Role::Tensor;
            default: return Role::Ignored;
        }
    }
    // A container made from values already on the stack (TUPLE2, LIST ...): none of them may
    // be a container, which was foreseen to go elsewhere.
    void fromItems(Shape shape, const Val* items, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k)
            if (items[k].kind == ValueKind::Box) giveUp();
        newBox(shape);
        place(m_top[-1].len, items, n);
    }

    // ---- values placed into a container: read by the container's role
    void place(std::uint32_t into, const Val* items, std::size_t n) {
        Box& box = m_boxes[into];
        const Box b = box;
        box.count += static_cast<std::uint32_t>(n);
        if (b.shape == Shape::Dict) {
            if (b.role == Role::Entry) {  // most of a dump: read here, in one pass, without a call a pair
                EntryScratch& e = m_entries[b.slot];
                for (std::size_t k = 0; k < n; k += 2) {
                    Val key = items[k];
                    const Val& v = items[k + 1];
                    if (key.kind == ValueKind::Box || (v.kind == ValueKind::Box && m_boxes[v.len].parent != into)) giveUp();
                    if (key.kind == ValueKind::Text) entryItem(e, keyOf(key), v);
                }
                return;
            }
            for (std::size_t k = 0; k < n; k += 2)
                if (items[k].kind == ValueKind::Box || (items[k + 1].kind == ValueKind::Box && m_boxes[items[k + 1].len].parent != into)) giveUp();
            if (b.role == Role::Ignored) return;
            for (std::size_t k = 0; k < n; k += 2) {
                Val key = items[k];
                setItem(b, key, items[k + 1]);
            }
            return;
        }
        if (b.role == Role::Tensor) {  // dimensions: integers alone
            Span& t = m_tensors[b.slot];
            if (t.begin + t.count != m_dims.size()) giveUp();
            for (std::size_t k = 0; k < n; ++k) {
                if (!isInteger(items[k])) giveUp();
                m_dims.push_back(integer(items[k]));
            }
            t.count += static_cast<std::uint32_t>(n);
            return;
        }
        for (std::size_t k = 0; k < n; ++k)
            if (items[k].kind == ValueKind::Box && m_boxes[items[k].len].parent != into) giveUp();
        if (b.role == Role::Ignored) return;
        for (std::size_t k = 0; k < n; ++k) appendItem(b, b.count + static_cast<std::uint32_t>(k), items[k]);
    }

    static std::int64_t integer(const Val& v) { return static_cast<std::int64_t>(v.v); }
    static bool isInteger(const Val& v) { return v.kind == ValueKind::Int || v.kind == ValueKind::Bool; }  // Field::integer takes both
    const Box& boxOf(const Val& v, Role role) const {
        if (v.kind != ValueKind::Box || m_boxes[v.len].role != role) giveUp();
        return m_boxes[v.len];
    }
    static void once(std::uint32_t& seen, Key k) {  // a repeated key: the last would win, left to the full reader
        if (seen & bit(k)) giveUp();
        seen |= bit(k);
    }

    void setItem(const Box& b, Val& k, const Val& v) {
        switch (b.role) {
            case Role::Ignored: return;
            case Role::Entry: return entryItem(m_entries[b.slot], keyOf(k), v);
            case Role::Root: return rootItem(keyOf(k), v);
            case Role::PgConfig: return configGroup(k, v);
            case Role::PgStatus: return statusGroup(k, v);
            case Role::PgConfigGroup: {
                GroupScratch& g = m_groups[b.slot];
                const Key key = keyOf(k);
                if (key != Key::Name && key != Key::Desc && key != Key::Ranks) return;
                once(g.seen, key);
                if (key == Key::Ranks ? v.kind != ValueKind::Text && v.kind != ValueKind::None : v.kind != ValueKind::Text && v.kind != ValueKind::Int && v.kind != ValueKind::None)
                    giveUp();
                (key == Key::Name ? g.name : key == Key::Desc ? g.desc : g.ranks) = v;
                return;
            }
            case Role::PgStatusGroup: {
                StatusScratch& s = m_statuses[b.slot];
                const Key key = keyOf(k);
                if (key != Key::LastEnqueued && key != Key::LastStarted && key != Key::LastCompleted) return;
                once(s.seen, key);
                if (v.kind == ValueKind::None) return;
                if (!isInteger(v)) giveUp();
                (key == Key::LastEnqueued ? s.status.lastEnqueued : key == Key::LastStarted ? s.status.lastStarted : s.status.lastCompleted) = integer(v);
                return;
            }
            default: giveUp();  // a list role made a dict
        }
    }

    [[gnu::always_inline]] void entryItem(EntryScratch& e, Key key, const Val& v) {
        auto number = [&](std::int64_t& into) {
            once(e.seen, key);
            if (isInteger(v)) into = integer(v);
            else if (v.kind != ValueKind::None) giveUp();
        };
        switch (key) {
            case Key::PgId: return number(e.pgId);
            case Key::CollectiveSeqId: return number(e.seq);
            case Key::TimeCreated: return number(e.created);
            case Key::TimeStarted: return number(e.started);
            case Key::TimeCompleted: return number(e.completed);
            case Key::P2PSeqId: return number(e.p2pSeq);
            case Key::IsP2P:
                once(e.seen, key);
                e.p2p = v.kind == ValueKind::Bool && v.v != 0;
                return;
            case Key::ProfilingName:
            case Key::State:
                once(e.seen, key);
                if (v.kind != ValueKind::Text && v.kind != ValueKind::None) giveUp();
                (key == Key::State ? e.state : e.profilingName) = v;
                return;
            case Key::ProcessGroup: {
                once(e.seen, key);
                if (v.kind == ValueKind::None) return;
                const Box& pg = boxOf(v, Role::ProcessGroup);
                if (!isList(pg.shape)) giveUp();
                e.groupName = m_processGroups[pg.slot][0];
                e.groupDesc = m_processGroups[pg.slot][1];
                return;
            }
            case Key::InputSizes:
            case Key::InputDtypes:
            case Key::OutputSizes:
            case Key::OutputDtypes: {
                once(e.seen, key);
                if (v.kind == ValueKind::None) return;
                const bool sizes = key == Key::InputSizes || key == Key::OutputSizes;
                const Box& list = boxOf(v, sizes ? Role::InputSizes : Role::InputDtypes);
                if (!isList(list.shape)) giveUp();
                (key == Key::InputSizes ? e.sizes : key == Key::InputDtypes ? e.dtypes : key == Key::OutputSizes ? e.outputSizes : e.outputDtypes) = list.slot;
                return;
            }
            default: return;
        }
    }

    void rootItem(Key key, const Val& v) {
        switch (key) {
            case Key::Version:
            case Key::NcclVersion:
                once(m_rootSeen, key);
                if (v.kind != ValueKind::Text && v.kind != ValueKind::Int && v.kind != ValueKind::None) giveUp();
                (key == Key::Version ? m_version : m_ncclVersion) = v;
                return;
            case Key::Rank:
                once(m_rootSeen, key);
                if (v.kind != ValueKind::None && !isInteger(v)) giveUp();
                m_rank = v;
                return;
            case Key::PgConfig:
            case Key::PgStatus:
            case Key::Entries: {
                once(m_rootSeen, key);
                if (v.kind == ValueKind::None) return;
                const Box& box = boxOf(v, key == Key::PgConfig ? Role::PgConfig : key == Key::PgStatus ? Role::PgStatus : Role::Entries);
                if (box.shape != (key == Key::Entries ? Shape::List : Shape::Dict)) giveUp();
                m_rootHas |= bit(key);
                return;
            }
            default: return;
        }
    }

    std::string groupKey(const Val& k) const {
        if (k.kind == ValueKind::Text) return std::string(text(k));
        if (k.kind == ValueKind::Int) return std::to_string(integer(k));
        giveUp();
    }

    void configGroup(const Val& k, const Val& v) {
        const std::string key = groupKey(k);
        const Box& box = boxOf(v, Role::PgConfigGroup);
        if (box.shape != Shape::Dict) giveUp();
        const GroupScratch& g = m_groups[box.slot];
        std::string spelt;
        FlightRecorderGroup out;
        out.name = g.name.kind == ValueKind::None ? key : std::string(textOf(g.name, spelt));
        out.desc = std::string(textOf(g.desc, spelt));
        if (g.ranks.kind == ValueKind::Text) {
            const std::string_view ranks = text(g.ranks);
            out.ranks = m_lists.find(ranks);
            if (!out.ranks) out.ranks = m_lists.keep(ranks, flightRecorderRanksFromText(ranks, m_dump.path, key));
        } else {
            out.ranks = std::make_shared<const std::vector<std::int32_t>>();
        }
        m_dump.groups[key] = std::move(out);
    }

    void statusGroup(const Val& k, const Val& v) {
        const std::string key = groupKey(k);
        const Box& box = boxOf(v, Role::PgStatusGroup);
        if (box.shape != Shape::Dict) giveUp();
        m_dump.groupStatus[key] = m_statuses[box.slot].status;
    }

    void appendItem(const Box& b, std::uint32_t index, const Val& v) {
        switch (b.role) {
            case Role::Ignored: return;  // (a tensor's dimensions are read in place())
            case Role::InputSizes: {
                const Box& tensor = boxOf(v, Role::Tensor);
                if (!isList(tensor.shape)) giveUp();
                Span& s = m_sizeLists[b.slot];
                if (tensor.slot != s.begin + s.count) giveUp();
                ++s.count;
                return;
            }
            case Role::InputDtypes: {
                if (v.kind != ValueKind::Text && v.kind != ValueKind::Int) giveUp();
                Span& s = m_dtypeLists[b.slot];
                if (s.begin + s.count != m_dtypes.size()) giveUp();
                m_dtypes.push_back(v);
                ++s.count;
                return;
            }
            case Role::ProcessGroup:
                if (index >= 2) return;  // the full reader reads the name and description alone
                if (v.kind != ValueKind::Text && v.kind != ValueKind::Int) giveUp();
                m_processGroups[b.slot][index] = v;
                return;
            case Role::Entries: {
                const Box& entry = boxOf(v, Role::Entry);
                if (entry.shape != Shape::Dict) giveUp();
                addEntry(m_entries[entry.slot]);
                m_freeEntries.push_back(entry.slot);  // placed: nothing reaches it again
                return;
            }
            default: giveUp();  // a dict role made a list
        }
    }

    // ---- an entry's fields, read without the stack
    // Nearly all of a dump is its entries, all written by one pickler in a few shapes: a key
    // (a text, or one from the memo), then a number, a text, None, the (name, desc) pair, or
    // a list of tensor sizes or dtypes. Those are read here, from the entry's MARK to its
    // SETITEMS, straight into the entry: each container made just as the general loop would
    // make it, each field given to entryItem as place() would give it. Anything else (another
    // opcode, a container under a key not read, a memo slot out of order) puts everything
    // back as it was at the MARK, and the general loop reads the entry instead.
    using Byte = unsigned char;
    // Each token is read with at least this many bytes after its start (a text checks its own
    // length): one comparison a token rather than one a read. An opcode and its argument take
    // 10 bytes at most, a memo opcode 5. The last entry, this close to the end, is left to the
    // general loop.
    static constexpr std::ptrdiff_t kRoom = 24;
    static_assert(std::endian::native == std::endian::little, "numbers are copied as the pickle stores them");

    static bool isEntry(const Box& b) { return b.role == Role::Entry && b.shape == Shape::Dict; }

    struct Checkpoint {
        const char* p;
        std::size_t memo, boxes, processGroups, sizeLists, tensors, dims, dtypeLists, dtypes;
        std::uint64_t memoCount, memoText;
    };
    Checkpoint checkpoint() const {
        return {m_p,           m_memoSize,       m_boxes.size(),      m_processGroups.size(), m_sizeLists.size(), m_tensors.size(),
                m_dims.size(), m_dtypeLists.size(), m_dtypes.size(), m_memoCount,            m_memoText};
    }
    void rollBack(const Checkpoint& c) {
        m_p = c.p;
        m_memoSize = c.memo;
        m_boxes.resize(c.boxes);
        m_processGroups.resize(c.processGroups);
        m_sizeLists.resize(c.sizeLists);
        m_tensors.resize(c.tensors);
        m_dims.resize(c.dims);
        m_dtypeLists.resize(c.dtypeLists);
        m_dtypes.resize(c.dtypes);
        m_memoCount = c.memoCount;
        m_memoText = c.memoText;
    }

    // Called at the MARK that opens the entry's fields; leaves the SETITEMS that closes them to
    // the general loop, which then places nothing.
    void readEntryFields(std::uint32_t entry) {
        EntryScratch& e = m_entries[m_boxes[entry].slot];
        const EntryScratch before = e;
        const Checkpoint at = checkpoint();
        const Byte* p = reinterpret_cast<const Byte*>(m_p);
        // The general loop would have stacked at most a value a byte: past its limit, it decides.
        if (entryFields(p, entry, e) && size() + static_cast<std::size_t>(p - reinterpret_cast<const Byte*>(at.p)) < kMaxStack) {
            m_p = reinterpret_cast<const char*>(p);
            return;
        }
        e = before;
        rollBack(at);
    }
    [[gnu::always_inline]] bool room(const Byte* p) const { return reinterpret_cast<const Byte*>(m_end) - p >= kRoom; }

    bool entryFields(const Byte*& p, std::uint32_t entry, EntryScratch& e) {
        for (;;) {
            if (!room(p)) return false;
            if (*p == 'u') return true;
            Val key;
            if (!token(p, key) || key.kind != ValueKind::Text) return false;
            if (key.key == Key::Unknown) key.key = classify(text(key));
            if (!memoized(p, key) || !field(p, entry, e, key.key)) return false;
        }
    }
    // Each field the dump keeps is read at a site of its own, its key known there, so that the
    // branch predictor learns each one's usual opcode (a time is a LONG1, a state a memoised
    // text): at one site for all, most opcodes were mispredicted.
    [[gnu::always_inline]] bool field(const Byte*& p, std::uint32_t entry, EntryScratch& e, Key key) {
        switch (key) {
            case Key::InputSizes: return *p == ']' ? listField<Key::InputSizes>(p, entry, e) : scalarField<Key::InputSizes>(p, e);
            case Key::OutputSizes: return *p == ']' ? listField<Key::OutputSizes>(p, entry, e) : scalarField<Key::OutputSizes>(p, e);
            case Key::InputDtypes: return *p == ']' ? listField<Key::InputDtypes>(p, entry, e) : scalarField<Key::InputDtypes>(p, e);
            case Key::OutputDtypes: return *p == ']' ? listField<Key::OutputDtypes>(p, entry, e) : scalarField<Key::OutputDtypes>(p, e);
            case Key::ProcessGroup: return *p != 'N' ? listField<Key::ProcessGroup>(p, entry, e) : scalarField<Key::ProcessGroup>(p, e);
            case Key::PgId: return scalarField<Key::PgId>(p, e);
            case Key::CollectiveSeqId: return scalarField<Key::CollectiveSeqId>(p, e);
            case Key::P2PSeqId: return scalarField<Key::P2PSeqId>(p, e);
            case Key::IsP2P: return scalarField<Key::IsP2P>(p, e);
            case Key::ProfilingName: return scalarField<Key::ProfilingName>(p, e);
            case Key::State: return scalarField<Key::State>(p, e);
            case Key::TimeCreated: return scalarField<Key::TimeCreated>(p, e);
            case Key::TimeStarted: return scalarField<Key::TimeStarted>(p, e);
            case Key::TimeCompleted: return scalarField<Key::TimeCompleted>(p, e);
            default: return scalarField<Key::Other>(p, e);
        }
    }
    template <Key K>
    [[gnu::always_inline]] bool scalarField(const Byte*& p, EntryScratch& e) {
        Val v;
        if (!token(p, v) || !memoized(p, v)) return false;
        entryItem(e, K, v);
        return true;
    }
    template <Key K>
    bool listField(const Byte*& p, std::uint32_t entry, EntryScratch& e) {
        Val v;
        const bool read = K == Key::ProcessGroup                              ? groupPair(p, entry, v)
                          : K == Key::InputSizes || K == Key::OutputSizes ? sizesList(p, entry, v)
                                                                          : dtypesList(p, entry, v);
        if (!read) return false;
        entryItem(e, K, v);
        return true;
    }

    // A value that is no container, at p, as scalar() reads it: the common opcodes here, the
    // rest by scalar() itself. False for any other opcode.
    [[gnu::always_inline]] bool token(const Byte*& p, Val& v) {
        switch (*p) {
            case 'h': {  // BINGET
                const Byte slot = p[1];
                p += 2;
                return fromMemo(slot, v);
            }
            case 0x8c: {  // SHORT_BINUNICODE
                const std::size_t n = p[1];
                if (static_cast<std::size_t>(reinterpret_cast<const Byte*>(m_end) - p) < n + 2) return false;
                v = {ValueKind::Text, Key::Unknown, static_cast<std::uint32_t>(n), static_cast<std::uint64_t>(reinterpret_cast<const char*>(p + 2) - m_data.data())};
                p += 2 + n;
                return true;
            }
            case 'K':  // BININT1
                v = {ValueKind::Int, Key::Unknown, 0, p[1]};
                p += 2;
                return true;
            case 'M':  // BININT2
                v = {ValueKind::Int, Key::Unknown, 0, static_cast<std::uint64_t>(p[1] | p[2] << 8)};
                p += 3;
                return true;
            case 'J': {  // BININT
                std::int32_t x = 0;
                std::memcpy(&x, p + 1, sizeof x);
                v = {ValueKind::Int, Key::Unknown, 0, static_cast<std::uint64_t>(static_cast<std::int64_t>(x))};
                p += 5;
                return true;
            }
            case 0x8a:  // LONG1 of 8 bytes: a time in nanoseconds
                if (p[1] != 8) break;
                v = {ValueKind::Int, Key::Unknown, 0, 0};
                std::memcpy(&v.v, p + 2, sizeof v.v);
                p += 10;
                return true;
            case 'N': v = {ValueKind::None, Key::Unknown, 0, 0}; p += 1; return true;
            case 0x88: v = {ValueKind::Bool, Key::Unknown, 0, 1}; p += 1; return true;
            case 0x89: v = {ValueKind::Bool, Key::Unknown, 0, 0}; p += 1; return true;
            default: break;
        }
        m_p = reinterpret_cast<const char*>(p + 1);
        const bool read = scalar(*p, v);
        p = reinterpret_cast<const Byte*>(m_p);
        return read;
    }
    // The memo opcode that may follow a value: only the next slot, as picklers number them.
    [[gnu::always_inline]] bool memoized(const Byte*& p, const Val& v) {
        if (!room(p)) return false;
        switch (*p) {
            case 0x94:  // MEMOIZE
                if (m_memoCount != m_memoSize) return false;
                p += 1;
                break;
            case 'q':  // BINPUT
                if (p[1] != m_memoSize) return false;
                p += 2;
                break;
            default: return true;
        }
        remember(v);
        return true;
    }
    // The memo's next slot. Not push_back: GCC leaves that a call in the scanner's large
    // functions, and nearly every value read is memoised (15% of reading a dump). The memo
    // keeps its slots from dump to dump; m_memoSize says how many hold this one's values.
    [[gnu::always_inline]] Val& nextMemoSlot() {
        if (m_memoSize == m_memo.size()) [[unlikely]] m_memo.resize(std::max<std::size_t>(1024, 2 * m_memo.size()));
        return m_memo[m_memoSize++];
    }
    [[gnu::always_inline]] void remember(const Val& v) {
        nextMemoSlot() = v;
        ++m_memoCount;
    }

    // A container as newBox would make it under `parent`; kNone past the depth limit.
    std::uint32_t box(std::uint32_t parent, Role role, Shape shape, std::uint32_t slot) {
        Box b;
        b.parent = parent;
        b.slot = slot;
        b.role = role;
        b.shape = shape;
        b.depth = static_cast<std::uint16_t>(m_boxes[parent].depth + 1);
        if (b.depth > kMaxDepth) return kNone;
        m_boxes.push_back(b);
        return static_cast<std::uint32_t>(m_boxes.size() - 1);
    }
    static Val boxValue(std::uint32_t id) { return {ValueKind::Box, Key::Unknown, id, 0}; }

    // A list's items as Python's pickler writes them: batches of MARK items APPENDS, or one
    // item and APPEND; nothing when empty. `starts` says whether an item begins at p, `item`
    // reads one and says whether it could.
    template <typename Starts, typename Item>
    [[gnu::always_inline]] bool listItems(const Byte*& p, Starts starts, Item item) {
        for (;;) {
            if (!room(p)) return false;
            if (*p == '(') {
                ++p;
                for (;;) {
                    if (!room(p)) return false;
                    if (*p == 'e') break;
                    if (!item(p)) return false;
                }
                ++p;
            } else if (starts(p)) {
                if (!item(p) || !room(p) || *p != 'a') return false;
                ++p;
            } else {
                return true;
            }
        }
    }

    bool groupPair(const Byte*& p, std::uint32_t entry, Val& v) {  // name desc TUPLE2
        Val name, desc;
        if (!token(p, name) || !memoized(p, name) || !token(p, desc) || !memoized(p, desc) || *p != 0x86) return false;
        if ((name.kind != ValueKind::Text && name.kind != ValueKind::Int) || (desc.kind != ValueKind::Text && desc.kind != ValueKind::Int)) return false;
        ++p;
        const std::uint32_t id = box(entry, Role::ProcessGroup, Shape::Tuple, add(m_processGroups));
        if (id == kNone) return false;
        m_processGroups.back() = {name, desc};
        v = boxValue(id);
        return memoized(p, v);
    }
    bool sizesList(const Byte*& p, std::uint32_t entry, Val& v) {  // [[dim, ...], ...]
        ++p;
        const std::uint32_t list = box(entry, Role::InputSizes, Shape::List, add(m_sizeLists, m_tensors.size()));
        if (list == kNone) return false;
        v = boxValue(list);
        if (!memoized(p, v)) return false;
        const std::uint32_t slot = m_boxes[list].slot;
        return listItems(p, [](const Byte* q) { return *q == ']'; },
                         [&](const Byte*& q) {
                             if (*q != ']') return false;
                             ++m_sizeLists[slot].count;
                             return tensor(q, list);
                         });
    }
    bool tensor(const Byte*& p, std::uint32_t list) {  // [dim, ...]
        ++p;
        const std::uint32_t t = box(list, Role::Tensor, Shape::List, add(m_tensors, m_dims.size()));
        if (t == kNone || !memoized(p, boxValue(t))) return false;
        const std::uint32_t slot = m_boxes[t].slot;
        return listItems(p, [](const Byte* q) { return *q == 'K' || *q == 'M' || *q == 'J' || *q == 0x8a; },
                         [&](const Byte*& q) {
                             Val d;
                             if (!token(q, d) || d.kind != ValueKind::Int) return false;
                             m_dims.push_back(integer(d));
                             ++m_tensors[slot].count;
                             return true;
                         });
    }
    bool dtypesList(const Byte*& p, std::uint32_t entry, Val& v) {  // [dtype, ...]
        ++p;
        const std::uint32_t list = box(entry, Role::InputDtypes, Shape::List, add(m_dtypeLists, m_dtypes.size()));
        if (list == kNone) return false;
        v = boxValue(list);
        if (!memoized(p, v)) return false;
        const std::uint32_t slot = m_boxes[list].slot;
        return listItems(p, [this](const Byte* q) { return appendFollows(q); },
                         [&](const Byte*& q) {
                             Val d;
                             if (!token(q, d) || (d.kind != ValueKind::Text && d.kind != ValueKind::Int) || !memoized(q, d)) return false;
                             m_dtypes.push_back(d);
                             ++m_dtypeLists[slot].count;
                             return true;
                         });
    }
    // A single dtype opens like the next key: whether the text or memo read at p (which has
    // room), and its memo opcode if any, is followed by APPEND.
    bool appendFollows(const Byte* p) const {
        switch (*p) {
            case 'h': p += 2; break;
            case 0x8c: p += 2 + p[1]; break;
            default: return false;
        }
        if (reinterpret_cast<const Byte*>(m_end) - p < 3) return false;
        if (*p == 0x94) p += 1;
        else if (*p == 'q') p += 2;
        return *p == 'a';
    }

    // ---- an entry as the full reader keeps it
    void addEntry(const EntryScratch& s) {
        FlightRecorderEntry e;
        e.group = internGroup(s);
        e.collectiveSeqId = s.p2p ? s.p2pSeq : s.seq;
        e.isP2P = s.p2p;
        e.op = internOp(s.profilingName);
        e.input = internShapes(s.sizes, s.dtypes);
        if (s.state.kind == ValueKind::Text) e.state = flightRecorderState(text(s.state));
        e.timeCreatedNs = s.created;
        if (m_timings) {
            // Most collectives give back tensors shaped as they took them.
            e.output = sameShapes(s.sizes, s.dtypes, s.outputSizes, s.outputDtypes) ? e.input : internShapes(s.outputSizes, s.outputDtypes);
            m_dump.timings.push_back({s.started, s.completed});
        }
        m_dump.entries.push_back(e);
    }

    // The dump's own interning decides; a cache keyed by where the texts lie in the data
    // (a memoised string lies in one place) spares most of its string comparisons.
    std::uint32_t internGroup(const EntryScratch& s) {
        const bool cacheable = s.groupName.kind != ValueKind::Int && s.groupDesc.kind != ValueKind::Int;
        GroupCache* c = nullptr;
        if (cacheable) {
            c = &m_groupCache[(s.groupName.v * 31 + s.groupDesc.v * 7 + static_cast<std::uint64_t>(s.pgId)) % m_groupCache.size()];
            if (c->index != kNone && c->name == s.groupName.v && c->nameLen == s.groupName.len && c->desc == s.groupDesc.v &&
                c->descLen == s.groupDesc.len && c->pgId == s.pgId && c->nameKind == s.groupName.kind && c->descKind == s.groupDesc.kind)
                return c->index;
        }
        std::string spelt[2];
        const std::uint32_t index = m_dump.internGroup(textOf(s.groupName, spelt[0]), textOf(s.groupDesc, spelt[1]), s.pgId);
        if (c) *c = {s.groupName.v, s.groupDesc.v, s.pgId, s.groupName.len, s.groupDesc.len, index, s.groupName.kind, s.groupDesc.kind};
        return index;
    }
    std::uint32_t internOp(const Val& name) {
        if (name.kind != ValueKind::Text) return m_dump.internOp("");
        OpCache& c = m_opCache[name.v % m_opCache.size()];
        if (c.index != kNone && c.offset == name.v && c.len == name.len) return c.index;
        c = {name.v, name.len, m_dump.internOp(text(name))};
        return c.index;
    }
    std::uint32_t internShapes(std::uint32_t sizeList, std::uint32_t dtypeList) {
        std::uint64_t h = 0xcbf29ce484222325ull;
        auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001b3ull; };
        const Span sizes = sizeList == kNone ? Span{} : m_sizeLists[sizeList];
        const Span dtypes = dtypeList == kNone ? Span{} : m_dtypeLists[dtypeList];
        bool spelt = false;
        mix(sizes.count);
        for (std::uint32_t i = 0; i < sizes.count; ++i) {
            const Span& t = m_tensors[sizes.begin + i];
            mix(t.count);
            for (std::uint32_t k = 0; k < t.count; ++k) mix(static_cast<std::uint64_t>(m_dims[t.begin + k]));
        }
        mix(dtypes.count);
        for (std::uint32_t i = 0; i < dtypes.count; ++i) {
            const Val& d = m_dtypes[dtypes.begin + i];
            spelt |= d.kind != ValueKind::Text;
            mix(d.kind == ValueKind::Text ? std::hash<std::string_view>{}(text(d)) : d.v);
        }
        ShapeCache& c = m_shapeCache[h >> 58];  // the high bits: the low ones see only the dimensions' low bits
        if (!spelt && c.index != kNone && c.hash == h && same(m_dump.tensors[c.index], sizes, dtypes)) return c.index;
        FlightRecorderTensors t;
        t.sizes.reserve(sizes.count);
        for (std::uint32_t i = 0; i < sizes.count; ++i) {
            const Span& d = m_tensors[sizes.begin + i];
            t.sizes.emplace_back(m_dims.begin() + d.begin, m_dims.begin() + d.begin + d.count);
        }
        std::string number;
        for (std::uint32_t i = 0; i < dtypes.count; ++i) t.dtypes.emplace_back(textOf(m_dtypes[dtypes.begin + i], number));
        const std::uint32_t index = m_dump.internTensors(std::move(t));
        if (!spelt) c = {h, index};
        return index;
    }
    // Whether two sides read the same, dimension by dimension and text by text (a number
    // spelt as a text is left to internShapes).
    bool sameShapes(std::uint32_t sizesA, std::uint32_t dtypesA, std::uint32_t sizesB, std::uint32_t dtypesB) const {
        const Span a = sizesA == kNone ? Span{} : m_sizeLists[sizesA];
        const Span b = sizesB == kNone ? Span{} : m_sizeLists[sizesB];
        const Span da = dtypesA == kNone ? Span{} : m_dtypeLists[dtypesA];
        const Span db = dtypesB == kNone ? Span{} : m_dtypeLists[dtypesB];
        if (a.count != b.count || da.count != db.count) return false;
        for (std::uint32_t i = 0; i < a.count; ++i) {
            const Span& x = m_tensors[a.begin + i];
            const Span& y = m_tensors[b.begin + i];
            if (x.count != y.count || !std::equal(m_dims.begin() + x.begin, m_dims.begin() + x.begin + x.count, m_dims.begin() + y.begin)) return false;
        }
        for (std::uint32_t i = 0; i < da.count; ++i) {
            const Val& x = m_dtypes[da.begin + i];
            const Val& y = m_dtypes[db.begin + i];
            if (x.kind != ValueKind::Text || y.kind != ValueKind::Text || (x.v != y.v && text(x) != text(y)) || x.len != y.len) return false;
        }
        return true;
    }
    bool same(const FlightRecorderTensors& t, Span sizes, Span dtypes) const {
        if (t.sizes.size() != sizes.count || t.dtypes.size() != dtypes.count) return false;
        for (std::uint32_t i = 0; i < sizes.count; ++i) {
            const Span& d = m_tensors[sizes.begin + i];
            if (t.sizes[i].size() != d.count || !std::equal(t.sizes[i].begin(), t.sizes[i].end(), m_dims.begin() + d.begin)) return false;
        }
        for (std::uint32_t i = 0; i < dtypes.count; ++i)
            if (t.dtypes[i] != text(m_dtypes[dtypes.begin + i])) return false;
        return true;
    }

    // ---- STOP: the dump's own fields, as the full reader checks them
    void finish() {
        if (m_base[0].kind != ValueKind::Box || m_base[0].len != m_root || m_boxes[m_root].shape != Shape::Dict) giveUp();
        if (m_memoText > 47 * m_data.size() + (16u << 20)) giveUp();  // the full reader's budget: 64 bytes a byte + 16 MB
        // A pg_config, pg_status or entries read but never placed in the dump would have been read in vain.
        if ((m_pgConfig != kNone && !(m_rootHas & bit(Key::PgConfig))) || (m_pgStatus != kNone && !(m_rootHas & bit(Key::PgStatus))) ||
            (m_entriesBox != kNone && !(m_rootHas & bit(Key::Entries))))
            giveUp();
        if (!(m_rootHas & (bit(Key::Entries) | bit(Key::PgConfig)))) giveUp();  // not a dump: the full reader says so
        std::string spelt;
        if (m_version.kind != ValueKind::None) m_dump.version = std::string(textOf(m_version, spelt));
        if (m_ncclVersion.kind != ValueKind::None) m_dump.ncclVersion = std::string(textOf(m_ncclVersion, spelt));
        if (m_rank.kind != ValueKind::None) {
            if (integer(m_rank) < 0 || integer(m_rank) > INT32_MAX) giveUp();
            m_dump.rank = static_cast<std::int32_t>(integer(m_rank));
        }
    }

    std::string_view m_data;
    FlightRecorderDump& m_dump;
    FlightRecorderGroupLists& m_lists;
    bool m_timings;
    // Pointers, not indices: the stack's 64-bit stores could alias an index, never a pointer.
    const char* m_p;
    const char* m_end;
    std::vector<Val>& m_store;  // the stack: m_base .. m_top, room to m_cap
    Val* m_base = nullptr;
    Val* m_top = nullptr;
    Val* m_cap = nullptr;
    std::vector<std::size_t>& m_marks;
    std::vector<Val>& m_memo;
    std::size_t m_memoSize = 0;  // m_memo's slots that hold this dump's values
    std::uint64_t m_memoCount = 0;
    std::vector<Val>& m_items;
    std::uint64_t m_memoText = 0;  // bytes of texts pushed again from the memo

    std::vector<Box>& m_boxes;
    std::uint32_t m_root = kNone, m_pgConfig = kNone, m_pgStatus = kNone, m_entriesBox = kNone;
    std::uint32_t m_rootSeen = 0, m_rootHas = 0;
    Val m_version, m_ncclVersion, m_rank;
    std::vector<GroupScratch>& m_groups;
    std::vector<StatusScratch>& m_statuses;
    std::vector<EntryScratch>& m_entries;
    std::vector<std::uint32_t>& m_freeEntries;
    std::vector<std::array<Val, 2>>& m_processGroups;
    std::vector<Span>& m_sizeLists;  // an input_sizes: its tensors in m_tensors
    std::vector<Span>& m_tensors;    // a tensor: its dimensions in m_dims
    std::vector<std::int64_t>& m_dims;
    std::vector<Span>& m_dtypeLists;  // an input_dtypes: its texts in m_dtypes
    std::vector<Val>& m_dtypes;

    struct GroupCache {
        std::uint64_t name = 0, desc = 0;
        std::int64_t pgId = 0;
        std::uint32_t nameLen = 0, descLen = 0, index = kNone;
        ValueKind nameKind = ValueKind::None, descKind = ValueKind::None;
    };
    struct OpCache {
        std::uint64_t offset = 0;
        std::uint32_t len = 0, index = kNone;
    };
    std::array<GroupCache, 64> m_groupCache{};
    std::array<OpCache, 64> m_opCache{};
    struct ShapeCache {
        std::uint64_t hash = 0;
        std::uint32_t index = kNone;
    };
    std::array<ShapeCache, 64> m_shapeCache{};  // by the top 6 bits of a shape's hash: the last index kept with it
};

}  // namespace

bool scanFlightRecorderPickle(std::string_view data, FlightRecorderDump& dump, FlightRecorderGroupLists& lists, bool timings) {
    // A dump larger than real ones gets memory of its own, given back when done.
    constexpr std::size_t kKeptFor = std::size_t{4} << 20;
    thread_local Scratch kept;
    Scratch own;
    try {
        Scanner(data, dump, lists, timings, data.size() <= kKeptFor ? kept : own).run();
        return true;
    } catch (const GiveUp&) {
        return false;
    } catch (const Error&) {  // a rank list with a number too large: the full reader names it
        return false;
    }
}

}  // namespace faultline
