// importers/text/json_event_stream.h on its own: a plain file is scanned where it is mapped, a
// compressed one through a buffer; both hand on the same events, metadata and messages,
// whatever falls on a chunk's end (an event, an escaped quote, a byte order mark).
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/text/json_event_stream.h"

#include <zlib.h>

#include <algorithm>
#include <fstream>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::ScratchDir;

std::string writeGzip(const ScratchDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.file(name);
    gzFile gz = gzopen(path.c_str(), "wb1");
    EXPECT_NE(gz, nullptr);
    for (std::size_t at = 0; at < bytes.size(); at += 1u << 20) {
        const auto n = static_cast<unsigned>(std::min<std::size_t>(1u << 20, bytes.size() - at));
        EXPECT_EQ(gzwrite(gz, bytes.data() + at, n), static_cast<int>(n));
    }
    gzclose(gz);
    return path;
}

struct Streamed {
    std::vector<std::string> events;
    std::vector<std::uint64_t> offsets;
    std::string metadata;
    std::vector<double> progress;
};

Streamed streamed(const std::string& path, std::vector<std::string_view> prefixes = {}) {
    JsonEventStream stream(path, std::move(prefixes));
    Streamed out;
    stream.run(
        [&](const char* data, std::size_t size, std::size_t padding) {
            EXPECT_GE(padding, 64u);  // what simdjson reads past the event
            out.events.emplace_back(data, size);
            out.offsets.push_back(stream.eventOffset());
        },
        [&](double p) { out.progress.push_back(p); });
    out.metadata = stream.metadata();
    return out;
}

// 20 MB of events (chunks are 8 MB): names with escaped quotes and braces, nested args.
std::string bigTrace(const std::string& before = "") {
    std::string doc = before + "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    for (int i = 0; i < 120'000; ++i) {
        doc += i ? ",\n" : "";
        doc += "{\"ph\": \"X\", \"name\": \"" + std::string(i % 3 ? "nccl:all_reduce" : "aten::\\\"mm{[\\\\") + "\", \"ts\": " +
               std::to_string(1000 + i) + ".5, \"dur\": 2, \"args\": {\"Seq\": " + std::to_string(i) +
               ", \"shape\": [[1, 2], [3]], \"note\": \"}]\\\" still a string\"}}";
    }
    doc += "\n], \"distributedInfo\": {\"rank\": 3}}";
    return doc;
}

TEST(JsonEventStream, AMappedFileGivesTheEventsAndMetadataOfOneReadThroughABuffer) {
    ScratchDir dir;
    for (const std::string& before : {std::string(), std::string("\xEF\xBB\xBF")}) {
        const std::string doc = bigTrace(before);
        ASSERT_GT(doc.size(), 16u << 20);
        const Streamed mapped = streamed(writeFile(dir, "t.json", doc));
        const Streamed buffered = streamed(writeGzip(dir, "t.json.gz", doc));
        ASSERT_EQ(mapped.events.size(), 120'000u);
        EXPECT_EQ(mapped.events, buffered.events);
        EXPECT_EQ(mapped.offsets, buffered.offsets);
        EXPECT_EQ(mapped.metadata, buffered.metadata);
        EXPECT_EQ(mapped.metadata, "{\"schemaVersion\": 1, \"traceEvents\": [], \"distributedInfo\": {\"rank\": 3}}");
        // Progress rises chunk by chunk to the end (Cancel is looked at between chunks).
        EXPECT_GE(mapped.progress.size(), 3u);
        EXPECT_TRUE(std::is_sorted(mapped.progress.begin(), mapped.progress.end()));
        EXPECT_DOUBLE_EQ(mapped.progress.back(), 1.0);

        // Filtered by name: the nccl events are kept, and those whose name holds an escape are
        // handed on for the parser to judge, so none of these is dropped unread.
        const Streamed kept = streamed(dir.file("t.json"), {"nccl"});
        EXPECT_EQ(kept.events.size(), 120'000u);
        const Streamed none = streamed(dir.file("t.json"), {"ProfilerStep#"});
        EXPECT_EQ(none.events.size(), 40'000u);  // the escaped names alone
        EXPECT_EQ(kept.events, streamed(dir.file("t.json.gz"), {"nccl"}).events);
    }
}

TEST(JsonEventStream, AMappedFileCutShortOrBrokenIsReportedAtTheSameByte) {
    ScratchDir dir;
    const std::string doc = bigTrace();
    const std::string cut = doc.substr(0, doc.size() / 2);
    std::size_t whole = 0;  // events ended before the cut: each ends its args and itself with "}}"
    for (std::size_t at = cut.find("}}"); at != std::string::npos; at = cut.find("}}", at + 2)) ++whole;
    const std::string cutMessage = errorOf([&] { streamed(writeFile(dir, "cut.json", cut)); });
    EXPECT_EQ(cutMessage, dir.file("cut.json") + ": byte " + std::to_string(cut.size()) + ": the file ends inside traceEvents: the file is cut short (" +
                              std::to_string(whole) + " trace events read)");
    const std::string gz = errorOf([&] { streamed(writeGzip(dir, "cut.json.gz", cut)); });
    EXPECT_EQ(gz.substr(gz.find(": byte ")), cutMessage.substr(cutMessage.find(": byte ")));

    std::string broken = doc;
    const std::size_t at = broken.find("}}", 12u << 20) + 2;
    broken.insert(at, "]]");
    const std::string message = errorOf([&] { streamed(writeFile(dir, "broken.json", broken)); });
    EXPECT_EQ(message, dir.file("broken.json") + ": byte " + std::to_string(at + 1) + ": unbalanced ']': expected '}' to close the top-level object");
}

}  // namespace
}  // namespace faultline
