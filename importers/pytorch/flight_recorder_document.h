#pragma once
// A Flight Recorder dump as read, whether PyTorch wrote the pickle or the JSON variant: one
// kind of value to walk, so the importer and the hang reader read both forms the same way.
#include "importers/pytorch/pickle_reader.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace faultline {

class FlightRecorderValue {
public:
    FlightRecorderValue() = default;
    explicit FlightRecorderValue(PickleNode p) : m_pickle(p), m_isPickle(true) {}
    explicit FlightRecorderValue(const nlohmann::json* j) : m_json(j) {}

    // The pickle side inline: a dump's walk calls these millions of times.
    bool present() const { return m_isPickle ? !m_pickle.isNone() : m_json && !m_json->is_null(); }  // neither missing nor None
    bool isText() const { return m_isPickle ? m_pickle.isText() : m_json && m_json->is_string(); }
    bool isInt() const { return m_isPickle ? m_pickle.kind() == PickleNode::Kind::Int : m_json && m_json->is_number_integer(); }  // not a boolean
    bool isBool() const { return m_isPickle ? m_pickle.kind() == PickleNode::Kind::Bool : m_json && m_json->is_boolean(); }
    bool isList() const {  // list or tuple
        return m_isPickle ? m_pickle.kind() == PickleNode::Kind::List || m_pickle.kind() == PickleNode::Kind::Tuple : m_json && m_json->is_array();
    }
    bool isDict() const { return m_isPickle ? m_pickle.isDict() : m_json && m_json->is_object(); }
    std::int64_t integer() const { return m_isPickle ? m_pickle.integer() : jsonInteger(); }  // isInt() or isBool()
    bool boolean() const { return m_isPickle ? m_pickle.boolean() : m_json && m_json->is_boolean() && m_json->get<bool>(); }  // false unless true
    std::string_view text() const { return m_isPickle ? m_pickle.text() : std::string_view(m_json->get_ref<const std::string&>()); }  // isText()
    std::size_t size() const {  // items of a list or pairs of a dict
        if (m_isPickle) return m_pickle.size();
        return m_json && (m_json->is_array() || m_json->is_object()) ? m_json->size() : 0;
    }
    FlightRecorderValue item(std::size_t i) const { return m_isPickle ? FlightRecorderValue(m_pickle.item(i)) : FlightRecorderValue(&(*m_json)[i]); }
    std::string keyText(std::size_t i) const;  // a dict's i-th key as text (an integer key spelt out)
    FlightRecorderValue value(std::size_t i) const;
    FlightRecorderValue operator[](std::string_view key) const;
    // What the value is, for messages: "a list", "text \"abc\"", "the number 7", "nothing".
    std::string describe() const;
    // f(key, value) for each member of a dict with a text key, in order.
    template <typename F>
    void forEachMember(F&& f) const {
        if (m_isPickle) {
            if (!m_pickle.isDict()) return;
            for (std::size_t i = 0, n = m_pickle.size(); i < n; ++i)
                if (const PickleNode k = m_pickle.key(i); k.isText()) f(k.text(), FlightRecorderValue(m_pickle.value(i)));
        } else if (m_json && m_json->is_object()) {
            for (auto it = m_json->begin(); it != m_json->end(); ++it) f(std::string_view(it.key()), FlightRecorderValue(&it.value()));
        }
    }

private:
    std::int64_t jsonInteger() const;
    PickleNode m_pickle;
    const nlohmann::json* m_json = nullptr;
    bool m_isPickle = false;
};

// The fields of one entry that Faultline reads, found in one pass over the entry's keys
// (absent ones are missing values).
struct FlightRecorderEntryValues {
    FlightRecorderValue processGroup, pgId, collectiveSeqId, p2pSeqId, isP2P, profilingName, inputSizes, inputDtypes, outputSizes,
        outputDtypes, state, timeCreated, timeStarted, timeCompleted;
};
FlightRecorderEntryValues flightRecorderEntryValues(const FlightRecorderValue& entry);

// The size limit every reader of dumps applies: dumps are a few hundred KB.
constexpr std::size_t kFlightRecorderFileLimit = std::size_t{512} << 20;

// A dump file's bytes, read whole (with that limit).
std::string readFlightRecorderFile(const std::string& path);
// The same into `into`, whose memory is reused: a worker reading thousands of dumps into one
// buffer spares the kernel clearing a fresh one's pages for each (7% of an import's time).
void readFlightRecorderFile(const std::string& path, std::string& into);

// A dump file read into a buffer its thread keeps for the next one, as a worker reading
// thousands of dumps does. One at a time on a thread; a large buffer is given back when done.
class FlightRecorderFileBuffer {
public:
    explicit FlightRecorderFileBuffer(const std::string& path);
    ~FlightRecorderFileBuffer();
    FlightRecorderFileBuffer(const FlightRecorderFileBuffer&) = delete;
    FlightRecorderFileBuffer& operator=(const FlightRecorderFileBuffer&) = delete;
    std::string_view data() const { return m_data; }

private:
    std::string& m_data;
};

// The file read whole and parsed; throws Error naming the file and what was expected.
class FlightRecorderDocument {
public:
    explicit FlightRecorderDocument(const std::string& path) : FlightRecorderDocument(path, readFlightRecorderFile(path)) {}
    FlightRecorderDocument(const std::string& path, std::string data);  // the file's bytes, already read
    FlightRecorderValue root() const;
    bool isPickle() const { return m_pickle.has_value(); }

private:
    std::string m_data;
    std::optional<PickleDocument> m_pickle;
    nlohmann::json m_json;
};

}  // namespace faultline
