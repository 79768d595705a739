#include "remote/prometheus_remote_read.h"

#include "importers/telemetry/telemetry_labels.h"
#include "model/error.h"

#include <cmath>
#include <cstring>
#include <optional>

namespace faultline {

namespace {

// --- protobuf's wire format, the little of it prompb's messages use -------------------------

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void putTag(std::string& out, int field, int wireType) { putVarint(out, static_cast<std::uint64_t>(field) << 3 | static_cast<std::uint64_t>(wireType)); }

void putBytes(std::string& out, int field, std::string_view bytes) {
    putTag(out, field, 2);
    putVarint(out, bytes.size());
    out.append(bytes);
}

void putInt(std::string& out, int field, std::int64_t v) {
    putTag(out, field, 0);
    putVarint(out, static_cast<std::uint64_t>(v));
}

// One message's fields in turn; Error naming the byte where the message breaks.
class ProtoReader {
public:
    ProtoReader(std::string_view bytes, const std::string& where, std::size_t base) : m_bytes(bytes), m_where(where), m_base(base) {}

    // The next field's number and wire type; false at the end of the message.
    bool next(int& field, int& wireType) {
        if (m_at >= m_bytes.size()) return false;
        const std::uint64_t key = varint();
        field = static_cast<int>(key >> 3);
        wireType = static_cast<int>(key & 7);
        return true;
    }
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            const auto b = static_cast<unsigned char>(m_bytes[m_at++]);
            v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        fail("a varint longer than 10 bytes");
    }
    double fixedDouble() {
        need(8);
        std::uint64_t bits = 0;
        for (int i = 7; i >= 0; --i) bits = bits << 8 | static_cast<unsigned char>(m_bytes[m_at + static_cast<std::size_t>(i)]);
        m_at += 8;
        double v = 0;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    // A length-delimited field's bytes, and a reader of them as a message.
    std::string_view bytes() {
        const std::uint64_t n = varint();
        need(n);
        const std::string_view out = m_bytes.substr(m_at, n);
        m_at += n;
        return out;
    }
    ProtoReader message() {
        const std::string_view inner = bytes();
        return ProtoReader(inner, m_where, m_base + m_at - inner.size());
    }
    void skip(int wireType) {
        if (wireType == 0) varint();
        else if (wireType == 1) advance(8);
        else if (wireType == 2) bytes();
        else if (wireType == 5) advance(4);
        else fail("a field of wire type " + std::to_string(wireType) + ", which no Prometheus message has");
    }

private:
    void need(std::uint64_t n) const {
        if (n > m_bytes.size() - m_at) fail("a field runs past the end of its message");
    }
    void advance(std::size_t n) {
        need(n);
        m_at += n;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(m_where + ": the server's remote read answer is broken at byte " + std::to_string(m_base + m_at) + " (uncompressed): " + what);
    }

    std::string_view m_bytes;
    const std::string& m_where;
    std::size_t m_base;
    std::size_t m_at = 0;
};

// One TimeSeries { 1: labels (Label {1: name, 2: value}), 2: samples (Sample {1: double value, 2: int64 ms}) }.
void readTimeSeries(ProtoReader series, const std::string& where, ImportedTelemetry& telemetry, FileReport& report, std::set<std::string>& hosts,
                    MatrixCounts& counts) {
    Labels labels;
    std::vector<std::pair<std::int64_t, double>> samples;
    int field = 0, type = 0;
    while (series.next(field, type)) {
        if (field == 1 && type == 2) {
            ProtoReader label = series.message();
            std::string name, value;
            int f = 0, t = 0;
            while (label.next(f, t)) {
                if (f == 1 && t == 2) name = label.bytes();
                else if (f == 2 && t == 2) value = label.bytes();
                else label.skip(t);
            }
            labels.emplace_back(std::move(name), std::move(value));
        } else if (field == 2 && type == 2) {
            ProtoReader sample = series.message();
            double value = 0;
            std::int64_t ms = 0;
            int f = 0, t = 0;
            while (sample.next(f, t)) {
                if (f == 1 && t == 1) value = sample.fixedDouble();
                else if (f == 2 && t == 0) ms = static_cast<std::int64_t>(sample.varint());
                else sample.skip(t);
            }
            samples.emplace_back(ms, value);
        } else {
            series.skip(type);
        }
    }
    const std::string* metric = label(labels, "__name__");
    std::int32_t index = -1;
    if (const auto refused = refusedHostLabel(labels)) {
        report.skip(where + ": series " + (metric ? *metric : std::string()) + ": " + *refused);
    } else if (const auto gpu = gpuFromLabels(labels); gpu && metric && !metric->empty()) {
        if (!gpu->host.empty()) hosts.insert(gpu->host);
        ++counts.series;
        index = telemetry.series(*gpu, metricFromLabels(*metric, labels));
    }
    for (const auto& [ms, value] : samples) {
        if (!std::isfinite(value)) {
            ++counts.skipped;  // NaN (a stale marker) or infinite: no reading at that instant
            continue;
        }
        if (index < 0) {
            ++counts.noGpu;
            continue;
        }
        const EpochNs at = ms * 1'000'000;
        telemetry.add(index, at, value);
        report.seen(at);
        ++counts.samples;
    }
}

}  // namespace

std::string snappyStore(std::string_view bytes) {
    std::string out;
    putVarint(out, bytes.size());
    constexpr std::size_t kChunk = 1 << 16;
    for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
        const std::size_t n = std::min(kChunk, bytes.size() - at);
        if (n <= 60) {
            out += static_cast<char>((n - 1) << 2);
        } else {
            out += static_cast<char>(61 << 2);  // the length less one in the next two bytes
            out += static_cast<char>((n - 1) & 0xFF);
            out += static_cast<char>((n - 1) >> 8);
        }
        out.append(bytes.substr(at, n));
    }
    return out;
}

std::string snappyUncompress(std::string_view block, const std::string& where) {
    std::size_t at = 0;
    auto fail = [&](const std::string& what) -> void {
        throw Error(where + ": the server's snappy-compressed answer is broken at byte " + std::to_string(at) + ": " + what);
    };
    std::uint64_t length = 0;
    for (int shift = 0;; shift += 7) {
        if (at >= block.size() || shift > 35) fail("no uncompressed length");
        const auto b = static_cast<unsigned char>(block[at++]);
        length |= static_cast<std::uint64_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) break;
    }
    // No block is larger than what it was compressed from can say: a bound before the allocation.
    if (length > block.size() * 64 + 64 || length > (std::uint64_t{4} << 30)) fail("an uncompressed length of " + std::to_string(length) + " bytes");
    std::string out;
    out.reserve(length);
    auto little = [&](std::size_t n) {
        if (block.size() - at < n) fail("a tag runs past the end");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(block[at + i])) << (8 * i);
        at += n;
        return v;
    };
    while (at < block.size()) {
        const auto tag = static_cast<unsigned char>(block[at++]);
        std::uint64_t len = 0, offset = 0;
        switch (tag & 3) {
            case 0: {
                len = (tag >> 2) + 1u;
                if ((tag >> 2) >= 60) len = little((tag >> 2) - 59u) + 1;
                if (block.size() - at < len) fail("a literal runs past the end");
                out.append(block.substr(at, len));
                at += len;
                continue;
            }
            case 1:
                len = ((tag >> 2) & 7u) + 4;
                offset = (static_cast<std::uint64_t>(tag >> 5) << 8) | little(1);
                break;
            case 2:
                len = (tag >> 2) + 1u;
                offset = little(2);
                break;
            default:
                len = (tag >> 2) + 1u;
                offset = little(4);
                break;
        }
        if (offset == 0 || offset > out.size()) fail("a copy from before the start");
        if (out.size() + len > length) fail("more bytes than the block says it holds");
        const std::size_t from = out.size() - offset;
        for (std::uint64_t i = 0; i < len; ++i) out += out[from + i];  // copies may overlap what they write
    }
    if (out.size() != length) fail("the block holds " + std::to_string(out.size()) + " bytes, not the " + std::to_string(length) + " it says");
    return out;
}

std::string remoteReadRequest(const std::vector<LabelMatch>& matchers, EpochNs from, EpochNs to) {
    std::string query;
    putInt(query, 1, from / 1'000'000);
    putInt(query, 2, to / 1'000'000);
    for (const LabelMatch& m : matchers) {
        std::string matcher;
        if (m.kind != LabelMatch::Kind::Equal) putInt(matcher, 1, static_cast<std::int64_t>(m.kind));
        putBytes(matcher, 2, m.name);
        putBytes(matcher, 3, m.value);
        putBytes(query, 3, matcher);
    }
    std::string request;
    putBytes(request, 1, query);
    putInt(request, 2, 0);  // accepted_response_types: SAMPLES, a whole ReadResponse
    return snappyStore(request);
}

MatrixCounts readRemoteReadResponse(const std::string& body, const std::string& where, ImportedTelemetry& telemetry, FileReport& report,
                                    std::set<std::string>& hosts) {
    const std::string bytes = snappyUncompress(body, where);
    MatrixCounts counts;
    ProtoReader response(bytes, where, 0);
    int field = 0, type = 0;
    while (response.next(field, type)) {
        if (field != 1 || type != 2) {
            response.skip(type);
            continue;
        }
        ProtoReader result = response.message();  // QueryResult { 1: timeseries }
        int f = 0, t = 0;
        while (result.next(f, t)) {
            if (f == 1 && t == 2) readTimeSeries(result.message(), where, telemetry, report, hosts, counts);
            else result.skip(t);
        }
    }
    return counts;
}

}  // namespace faultline
