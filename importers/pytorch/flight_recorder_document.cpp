#include "importers/pytorch/flight_recorder_document.h"

#include "importers/text/json_parse.h"
#include "importers/text/read_whole_file.h"

#include "model/error.h"

namespace faultline {

namespace {

using Kind = PickleNode::Kind;

}  // namespace

std::int64_t FlightRecorderValue::jsonInteger() const {
    if (m_json->is_boolean()) return m_json->get<bool>();
    // Above INT64_MAX nlohmann keeps an unsigned: no field of a dump is that large.
    if (m_json->is_number_unsigned() && m_json->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) return INT64_MAX;
    return m_json->get<std::int64_t>();
}

std::string FlightRecorderValue::keyText(std::size_t i) const {
    if (m_isPickle) {
        const PickleNode k = m_pickle.key(i);
        if (k.isText()) return std::string(k.text());
        if (k.kind() == Kind::Int) return std::to_string(k.integer());
        return "";
    }
    auto it = m_json->begin();
    std::advance(it, static_cast<std::ptrdiff_t>(i));
    return it.key();
}

FlightRecorderValue FlightRecorderValue::value(std::size_t i) const {
    if (m_isPickle) return FlightRecorderValue(m_pickle.value(i));
    auto it = m_json->begin();
    std::advance(it, static_cast<std::ptrdiff_t>(i));
    return FlightRecorderValue(&it.value());
}

FlightRecorderValue FlightRecorderValue::operator[](std::string_view key) const {
    if (m_isPickle) return FlightRecorderValue(m_pickle[key]);
    if (!m_json || !m_json->is_object()) return {};
    auto it = m_json->find(key);
    return it == m_json->end() ? FlightRecorderValue() : FlightRecorderValue(&*it);
}

std::string FlightRecorderValue::describe() const {
    if (!present()) return "nothing";
    if (isBool()) return boolean() ? "True" : "False";
    if (isInt()) return "the number " + std::to_string(integer());
    if (isText()) {
        const std::string_view t = text();
        return "text \"" + std::string(t.substr(0, 40)) + (t.size() > 40 ? "...\"" : "\"");
    }
    if (isList()) return "a list";
    if (isDict()) return "a dict";
    return "a number";
}

FlightRecorderEntryValues flightRecorderEntryValues(const FlightRecorderValue& entry) {
    FlightRecorderEntryValues v;
    entry.forEachMember([&v](std::string_view key, const FlightRecorderValue& value) {
        // By length first: an entry has twenty-odd keys, and this runs for every one of them.
        FlightRecorderValue* slot = nullptr;
        switch (key.size()) {
            case 5: slot = key == "state" ? &v.state : key == "pg_id" ? &v.pgId : nullptr; break;
            case 6: slot = key == "is_p2p" ? &v.isP2P : nullptr; break;
            case 10: slot = key == "p2p_seq_id" ? &v.p2pSeqId : nullptr; break;
            case 11: slot = key == "input_sizes" ? &v.inputSizes : nullptr; break;
            case 12: slot = key == "input_dtypes" ? &v.inputDtypes : key == "output_sizes" ? &v.outputSizes : nullptr; break;
            case 13: slot = key == "process_group" ? &v.processGroup : key == "output_dtypes" ? &v.outputDtypes : nullptr; break;
            case 14: slot = key == "profiling_name" ? &v.profilingName : nullptr; break;
            case 15: slot = key == "time_created_ns" ? &v.timeCreated : nullptr; break;
            case 17: slot = key == "collective_seq_id" ? &v.collectiveSeqId : nullptr; break;
            case 26: slot = key == "time_discovered_started_ns" ? &v.timeStarted : nullptr; break;
            case 28: slot = key == "time_discovered_completed_ns" ? &v.timeCompleted : nullptr; break;
            default: break;
        }
        if (slot) *slot = value;  // a repeated key: the last one wins, as in Python
    });
    return v;
}

void readFlightRecorderFile(const std::string& path, std::string& into) {
    // A plain regular file is read straight into its buffer: zlib's transparent reading
    // copies every byte once more, a tenth of the time of reading a dump (perf, 4,096 dumps).
    // Anything else (compressed, not a regular file, too large, an error) is left to readWholeFile,
    // which reads it or says what is wrong.
    if (!readPlainFile(path, kFlightRecorderFileLimit, into)) into = readWholeFile(path, kFlightRecorderFileLimit);
}

std::string readFlightRecorderFile(const std::string& path) {
    std::string data;
    readFlightRecorderFile(path, data);
    return data;
}

namespace {

std::string& threadBuffer() {
    thread_local std::string buffer;
    return buffer;
}

}  // namespace

FlightRecorderFileBuffer::FlightRecorderFileBuffer(const std::string& path) : m_data(threadBuffer()) {
    readFlightRecorderFile(path, m_data);
}

FlightRecorderFileBuffer::~FlightRecorderFileBuffer() {
    constexpr std::size_t kKept = std::size_t{4} << 20;  // dumps are a few hundred KB
    if (m_data.capacity() > kKept) std::string().swap(m_data);
}

FlightRecorderDocument::FlightRecorderDocument(const std::string& path, std::string data) : m_data(std::move(data)) {
    const std::size_t first = m_data.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) throw Error(path + ": empty file, expected a Flight Recorder dump");
    if (looksLikePickle(m_data)) m_pickle.emplace(m_data, path);
    else if (m_data[first] == '{') m_json = parseJson(m_data, path, "a Flight Recorder dump");
    else throw Error(path + ": not a Flight Recorder dump (expected a Python pickle, protocol 2 or later, or a JSON object)");
}

FlightRecorderValue FlightRecorderDocument::root() const {
    return m_pickle ? FlightRecorderValue(m_pickle->root()) : FlightRecorderValue(&m_json);
}

}  // namespace faultline
