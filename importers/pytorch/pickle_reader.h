#pragma once
// A safe reader for Python pickles that hold only data (dicts, lists, tuples, strings,
// numbers, None, booleans), as PyTorch writes its NCCL Flight Recorder dumps. Any opcode
// that would import a module, call a function or build an object (GLOBAL, STACK_GLOBAL,
// REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, PERSID, ...) is refused with an Error naming the
// byte offset, before anything is done with it. A memo bomb (a tree far larger than the file)
// and a container that contains itself are refused once the pickle is read, so every reader
// of the document can walk it as a tree.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>
#include <string>
#include <string_view>

namespace faultline {

struct PickleData;  // the values of one document

// One value of a PickleDocument; cheap to copy. A missing value (a key a dict lacks) is None.
class PickleNode {
public:
    enum class Kind : std::uint8_t { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict, Set };
    struct Raw {
        Kind kind = Kind::None;
        std::uint32_t a = 0;  // a string's length; a container's index into its children
        std::uint64_t b = 0;  // an int's or float's bits; a string's offset in the data
    };

    // Inline: a reader walks millions of these.
    Kind kind() const;
    bool isNone() const { return kind() == Kind::None; }
    bool isText() const { return kind() == Kind::String || kind() == Kind::Bytes; }
    bool isList() const { return kind() == Kind::List || kind() == Kind::Tuple || kind() == Kind::Set; }
    bool isDict() const { return kind() == Kind::Dict; }
    std::int64_t integer() const;  // for Int (and Bool: 0/1)
    bool boolean() const;          // false unless a Bool that is true
    double real() const;
    std::string_view text() const;  // a view of the pickle's data
    std::size_t size() const;       // items of a list, pairs of a dict, else 0
    PickleNode item(std::size_t i) const;
    PickleNode key(std::size_t i) const;
    PickleNode value(std::size_t i) const;
    PickleNode operator[](std::string_view key) const;  // a dict's value for a text key

    PickleNode() = default;
    PickleNode(const PickleData* doc, std::uint32_t id) : m_doc(doc), m_id(id) {}

private:
    const PickleData* m_doc = nullptr;
    std::uint32_t m_id = UINT32_MAX;
};

// Values are 16-byte nodes in one vector, containers hold node ids, and strings are views of
// the data: a dump of millions of values costs a few allocations per container, not one per
// value. Containers are shared by id, so a list filled after it was memoised is the same list
// wherever it is referenced.
struct PickleData {
    std::string_view data;
    std::vector<PickleNode::Raw> nodes;
    // A container's values (a dict's: key, value, key, value...) are items[begin, begin + count).
    struct Span {
        std::uint32_t begin = 0, count = 0;
    };
    std::vector<std::uint32_t> items;
    std::vector<Span> spans;  // by container index
    const std::uint32_t* childrenOf(std::uint32_t container) const { return items.data() + spans[container].begin; }
    std::uint32_t root = UINT32_MAX;
};

inline PickleNode::Kind PickleNode::kind() const { return m_doc && m_id != UINT32_MAX ? m_doc->nodes[m_id].kind : Kind::None; }
inline std::int64_t PickleNode::integer() const { return static_cast<std::int64_t>(m_doc->nodes[m_id].b); }
inline bool PickleNode::boolean() const { return kind() == Kind::Bool && m_doc->nodes[m_id].b != 0; }
inline double PickleNode::real() const {
    double f = 0;
    std::memcpy(&f, &m_doc->nodes[m_id].b, sizeof f);
    return f;
}
inline std::string_view PickleNode::text() const {
    const Raw& n = m_doc->nodes[m_id];
    return m_doc->data.substr(static_cast<std::size_t>(n.b), n.a);
}
inline std::size_t PickleNode::size() const {
    const Kind k = kind();
    if (k != Kind::List && k != Kind::Tuple && k != Kind::Set && k != Kind::Dict) return 0;
    const std::size_t n = m_doc->spans[m_doc->nodes[m_id].a].count;
    return k == Kind::Dict ? n / 2 : n;
}
inline PickleNode PickleNode::item(std::size_t i) const { return {m_doc, m_doc->childrenOf(m_doc->nodes[m_id].a)[i]}; }
inline PickleNode PickleNode::key(std::size_t i) const { return {m_doc, m_doc->childrenOf(m_doc->nodes[m_id].a)[2 * i]}; }
inline PickleNode PickleNode::value(std::size_t i) const { return {m_doc, m_doc->childrenOf(m_doc->nodes[m_id].a)[2 * i + 1]}; }

// A pickle read into values that point into `data`, which must outlive the document.
// Throws Error ("NAME: byte N: ...") for anything that is not a data pickle.
class PickleDocument {
public:
    PickleDocument(std::string_view data, const std::string& name);
    ~PickleDocument();
    PickleDocument(PickleDocument&&) noexcept;
    PickleNode root() const;

private:
    std::unique_ptr<PickleData> m_impl;
};

// The whole pickle as JSON (dict keys that are integers become text). `name` names the data
// in messages ("FILE: byte N: ...").
nlohmann::json readPickle(std::string_view data, const std::string& name);

// True when `data` starts like a pickle of protocol 2 or later (PROTO opcode).
bool looksLikePickle(std::string_view data);

}  // namespace faultline
