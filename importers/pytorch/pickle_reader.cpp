#include "importers/pytorch/pickle_reader.h"

#include "importers/pytorch/pickle_unpickler.h"

#include "model/error.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace faultline {

namespace {

constexpr std::size_t kMaxPickleDepth = 200;

using Kind = PickleNode::Kind;

// Memo references let a small pickle describe a huge tree (a list of two references to a
// list of two references to ...), and a list can be made to contain itself. Every reader of
// the document walks it as a tree, so the tree's expanded size is checked once here, each
// shared node counted once per reference, in time linear in the nodes and references.
class ExpansionCheck {
public:
    ExpansionCheck(const PickleData& doc, const std::string& name, std::uint64_t budget)
        : m_doc(doc), m_name(name), m_budget(budget), m_size(doc.spans.size(), 0), m_state(doc.spans.size(), 0) {}
    void run(std::uint32_t root) {
        if (expanded(root, 0) > m_budget)
            throw Error(m_name + ": the pickle expands to far more values than its size allows (memo references repeated over and over)");
    }

private:
    // Only containers are remembered (by their children index): a scalar's size is at hand.
    std::uint64_t expanded(std::uint32_t n, std::size_t depth) {
        const PickleNode::Raw& node = m_doc.nodes[n];
        if (node.kind != Kind::List && node.kind != Kind::Tuple && node.kind != Kind::Set && node.kind != Kind::Dict)
            return 16 + (node.kind == Kind::String || node.kind == Kind::Bytes ? node.a : 0);
        if (depth > kMaxPickleDepth || m_state[node.a] == 1)
            throw Error(m_name + ": the pickle nests deeper than " + std::to_string(kMaxPickleDepth) + " levels (or refers to itself)");
        if (m_state[node.a] == 2) return m_size[node.a];
        m_state[node.a] = 1;
        std::uint64_t size = 16;
        const std::uint32_t* c = m_doc.childrenOf(node.a);
        for (std::uint32_t k = 0; k < m_doc.spans[node.a].count; ++k) {
            const PickleNode::Raw& child = m_doc.nodes[c[k]];
            const bool container = child.kind == Kind::List || child.kind == Kind::Tuple || child.kind == Kind::Set || child.kind == Kind::Dict;
            size += container ? expanded(c[k], depth + 1) : 16 + (child.kind == Kind::String || child.kind == Kind::Bytes ? child.a : 0);
            size = std::min(m_budget + 1, size);
        }
        m_state[node.a] = 2;
        return m_size[node.a] = size;
    }
    const PickleData& m_doc;
    const std::string& m_name;
    std::uint64_t m_budget;
    std::vector<std::uint64_t> m_size;
    std::vector<std::uint8_t> m_state;  // 0 unseen, 1 being walked, 2 done
};

nlohmann::json toJson(PickleNode n, const std::string& name) {
    switch (n.kind()) {
        case Kind::None: return nullptr;
        case Kind::Bool: return n.boolean();
        case Kind::Int: return n.integer();
        case Kind::Float: return std::isfinite(n.real()) ? nlohmann::json(n.real()) : nlohmann::json(nullptr);
        // nlohmann refuses invalid UTF-8 when dumping, not when storing; keep bytes as they are.
        case Kind::String:
        case Kind::Bytes: return std::string(n.text());
        case Kind::List:
        case Kind::Tuple:
        case Kind::Set: {
            nlohmann::json a = nlohmann::json::array();
            for (std::size_t i = 0; i < n.size(); ++i) a.push_back(toJson(n.item(i), name));
            return a;
        }
        case Kind::Dict: {
            nlohmann::json o = nlohmann::json::object();
            for (std::size_t i = 0; i < n.size(); ++i) {
                const PickleNode k = n.key(i);
                std::string key;
                if (k.isText()) key = k.text();
                else if (k.kind() == Kind::Int) key = std::to_string(k.integer());
                else throw Error(name + ": a dict key that is not a string or integer");
                o[key] = toJson(n.value(i), name);
            }
            return o;
        }
    }
    return nullptr;
}

}  // namespace

PickleDocument::PickleDocument(std::string_view data, const std::string& name) : m_impl(std::make_unique<PickleData>()) {
    m_impl->data = data;
    m_impl->root = unpickle(*m_impl, name);
    ExpansionCheck(*m_impl, name, 64 * data.size() + (16u << 20)).run(m_impl->root);  // bytes of values, roughly
}

PickleDocument::~PickleDocument() = default;
PickleDocument::PickleDocument(PickleDocument&&) noexcept = default;

PickleNode PickleDocument::root() const { return {m_impl.get(), m_impl->root}; }

PickleNode PickleNode::operator[](std::string_view name) const {
    if (kind() != Kind::Dict) return {};
    const std::uint32_t* c = m_doc->childrenOf(m_doc->nodes[m_id].a);
    // The last value of a key wins, as in Python.
    for (std::size_t i = m_doc->spans[m_doc->nodes[m_id].a].count; i >= 2; i -= 2) {
        const PickleNode k{m_doc, c[i - 2]};
        if (k.isText() && k.text() == name) return {m_doc, c[i - 1]};
    }
    return {};
}

bool looksLikePickle(std::string_view data) {
    return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x80 && static_cast<unsigned char>(data[1]) >= 2 &&
           static_cast<unsigned char>(data[1]) <= 5;
}

nlohmann::json readPickle(std::string_view data, const std::string& name) {
    const PickleDocument doc(data, name);
    return toJson(doc.root(), name);
}

}  // namespace faultline
