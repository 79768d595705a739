#pragma once
// Streams one top-level array of a JSON object file one element at a time (a Chrome trace's
// "traceEvents", sacct --json's "jobs"), reading the file in chunks: memory stays at the
// chunk size plus the largest element, however big the file. Everything outside the array
// (distributedInfo, baseTimeNanoseconds, meta, ...) is handed back as a small JSON document
// of its own once the file has been read.
#include "importers/text/input_file.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// Which array to stream, and how messages name its elements and the file.
struct JsonArrayShape {
    std::string_view key = "traceEvents";
    std::string_view element = "trace event";
    std::string_view document = "a Chrome-trace JSON object";
};

class JsonEventStream {
public:
    // With `namePrefixes`, only events whose "name" starts with one of them are handed on
    // (and events with no plain-string name); the rest are skipped while they are scanned,
    // without a parse. Most of a profiler trace is events a reader does not keep.
    explicit JsonEventStream(const std::string& path, std::vector<std::string_view> namePrefixes = {}, JsonArrayShape shape = {});

    // Calls `onEvent` for each element of the array: the text of one JSON object, followed
    // in memory by at least `padding` readable bytes (what simdjson needs). Calls `onChunk`
    // after each chunk (for progress and Cancel). Throws Error naming the file and the byte
    // offset where the structure broke.
    void run(const std::function<void(const char* data, std::size_t size, std::size_t padding)>& onEvent,
             const std::function<void(double progress)>& onChunk);

    // The top-level object with traceEvents emptied: `{..., "traceEvents": [], ...}`.
    const std::string& metadata() const { return m_metadata; }
    std::int64_t eventCount() const { return m_events; }
    // Where the element being handed on starts in the (decompressed) file.
    std::uint64_t eventOffset() const { return m_eventOffset; }

private:
    class Scanner;  // one run()'s state and steps (json_event_stream.cpp)

    [[noreturn]] void fail(std::uint64_t offset, const std::string& what) const;

    InputFile m_in;
    std::vector<std::string_view> m_namePrefixes;
    JsonArrayShape m_shape;
    std::string m_metadata;
    std::int64_t m_events = 0;
    std::uint64_t m_eventOffset = 0;
};

}  // namespace faultline
