// Logs a cluster really leaves behind damaged or in another dress, each kept as a regression
// test of ../shared/repro/round4: the zero-filled block of a hard-reset node, zstd / xz /
// bzip2 compression, UTF-16 from PowerShell, and Latin-1 host names.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/formats.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/text/input_file.h"
#include "importers/text/line_reader.h"
#include "importers/text/text_encoding.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::importPaths;
using test::ScratchDir;

const std::string kDmesgXid79 = "kern  :warn  : 2025-01-21T05:10:33,283302+00:00 NVRM: Xid (PCI:0000:38:00): 79, pid=1, name=x, GPU has fallen off the bus.\n";
const std::string kDmesgXid48 = "kern  :warn  : 2025-01-21T05:12:00,000000+00:00 NVRM: Xid (PCI:0000:3a:00): 48, pid=1, name=x, DBE\n";
const std::string kDmesgXid13 = "kern  :warn  : 2025-01-21T05:00:00,000000+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid=1, name=x, Graphics Engine Exception\n";

std::vector<std::string> linesOf(const std::string& path, std::vector<std::string>* notes = nullptr, std::vector<std::int64_t>* numbers = nullptr) {
    LineReader in(path, notes);
    std::vector<std::string> out;
    std::string_view line;
    while (in.next(line)) {
        out.emplace_back(line);
        if (numbers) numbers->push_back(in.lineNumber());
    }
    return out;
}

bool hasNote(const FileReport& r, const std::string& text) {
    for (const std::string& n : r.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

// nul-block-log-skipped.sh: the node's log with the 4 KB block a reset left unwritten.
TEST(DamagedInput, AZeroBlockInAKernelLogIsSkippedAndToldAsAReset) {
    ScratchDir dir;
    const std::string path = dir.file("node7.dmesg.log");
    writeFile(path, kDmesgXid79 + std::string(4096, '\0') + kDmesgXid48);
    ASSERT_NE(detectFormat(path), nullptr);
    EXPECT_EQ(detectFormat(path)->name, "kernel-log");
    const ImportResult r = importPaths({path});
    EXPECT_EQ(r.run.failures.size(), 2u);  // the line glued to the block is read too
    ASSERT_EQ(r.summary.files.size(), 1u);
    EXPECT_TRUE(hasNote(r.summary.files[0], "4,096 zero bytes at offset " + std::to_string(kDmesgXid79.size()) + " (line 2): the node was probably reset here"))
        << testing::PrintToString(r.summary.files[0].notes);
}

TEST(DamagedInput, AZeroBlockLogInAFolderIsImportedNotSkipped) {
    ScratchDir dir;
    writeFile(dir.file("node7.dmesg.log"), kDmesgXid79 + std::string(4096, '\0') + kDmesgXid48);
    writeFile(dir.file("node8.dmesg.log"), kDmesgXid13);
    const ImportResult r = importPaths({dir.path()});
    EXPECT_EQ(r.run.failures.size(), 3u);
    for (const FileReport& f : r.summary.files) EXPECT_EQ(f.format, "kernel-log") << f.path;
}

TEST(DamagedInput, AZeroRunCutsTheLineItFallsInAndKeepsItsNumber) {
    ScratchDir dir;
    const std::string path = dir.file("cut.log");
    writeFile(path, std::string("one\ntw") + std::string(10, '\0') + "three\n" + std::string(3, '\0') + "\nfour");
    std::vector<std::string> notes;
    std::vector<std::int64_t> numbers;
    // Line 3 is only zeros: a blank line, as a line of spaces would be.
    EXPECT_EQ(linesOf(path, &notes, &numbers), (std::vector<std::string>{"one", "tw", "three", "", "four"}));
    EXPECT_EQ(numbers, (std::vector<std::int64_t>{1, 2, 2, 3, 4}));
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0], "10 zero bytes at offset 6 (line 2): the node was probably reset here");
    EXPECT_EQ(notes[1], "3 zero bytes at offset 22 (line 3): the node was probably reset here");
}

TEST(DamagedInput, ManyZeroRunsAreToldInOneLineBeyondTheFirstFew) {
    ScratchDir dir;
    const std::string path = dir.file("many.log");
    std::string text;
    for (int i = 0; i < 20; ++i) text += "line\n" + std::string(100, '\0');
    writeFile(path, text);
    std::vector<std::string> notes;
    EXPECT_EQ(linesOf(path, &notes).size(), 20u);
    ASSERT_EQ(notes.size(), LineReader::kZeroRunNotes + 1);
    EXPECT_EQ(notes.back(), "15 more runs of zero bytes (2,000 zero bytes in all in the file): the node was probably reset there");
}

TEST(DamagedInput, BinaryFilesWithZeroBytesAreStillUnknown) {
    ScratchDir dir;
    const std::string path = dir.file("blob.bin");
    std::string bytes;
    for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7) % 32);
    writeFile(path, bytes);
    EXPECT_EQ(detectFormat(path), nullptr);
    writeFile(path, std::string(8192, '\0'));
    EXPECT_EQ(detectFormat(path), nullptr);
}

std::string zstdOf(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
    return out;
}

std::string xzOf(const std::string& text) {
    std::string out(lzma_stream_buffer_bound(text.size()), '\0');
    std::size_t pos = 0;
    lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                            reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
    out.resize(pos);
    return out;
}

std::string bzip2Of(const std::string& text) {
    std::string out(text.size() + text.size() / 100 + 600, '\0');
    auto n = static_cast<unsigned>(out.size());
    BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(text.data()), static_cast<unsigned>(text.size()), 9, 0, 0);
    out.resize(n);
    return out;
}

std::string gzipOf(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, text.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string utf16Of(const std::string& ascii, bool bigEndian) {
    std::string out = bigEndian ? "\xfe\xff" : "\xff\xfe";
    for (const char c : ascii) out += bigEndian ? std::string{'\0', c} : std::string{c, '\0'};
    return out;
}

// zstd-utf16-unknown.sh: each of these held one Xid and was "unknown format".
TEST(DamagedInput, CompressedAndUtf16LogsAreRead) {
    ScratchDir dir;
    const std::vector<std::pair<std::string, std::string>> files = {
        {"a.log.zst", zstdOf(kDmesgXid79)},        {"b.log", utf16Of(kDmesgXid79, false)}, {"c.log.gz", gzipOf(kDmesgXid79)},
        {"d.log.xz", xzOf(kDmesgXid79)},           {"e.log.bz2", bzip2Of(kDmesgXid79)},    {"f.log", utf16Of(kDmesgXid79, true)},
        {"g.log.zst", zstdOf(kDmesgXid79) + zstdOf(kDmesgXid48)},  // frames one after another, as `cat a.zst b.zst` makes
        {"h.log.bz2", bzip2Of(kDmesgXid79) + bzip2Of(kDmesgXid48)},
    };
    for (const auto& [name, bytes] : files) {
        writeFile(dir.file(name), bytes);
        const FormatInfo* format = detectFormat(dir.file(name));
        ASSERT_NE(format, nullptr) << name;
        EXPECT_EQ(format->name, "kernel-log") << name;
        const ImportResult one = importPaths({dir.file(name)});
        EXPECT_EQ(one.run.failures.size(), name[0] == 'g' || name[0] == 'h' ? 2u : 1u) << name;
    }
    EXPECT_EQ(importPaths({dir.path()}).run.failures.size(), 10u);
}

// Detection decompresses, so a zstd or xz Flight Recorder dump is told a pickle; its reader's
// fast path for plain files must then leave it to the decompressing one.
TEST(DamagedInput, CompressedFlightRecorderDumpsAreRead) {
    ScratchDir dir;
    std::ifstream in(test::fixture("fr_repickled_protocol5_7"), std::ios::binary);
    const std::string pickle((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const FlightRecorderDump plain = readFlightRecorderDump(test::fixture("fr_repickled_protocol5_7"));
    ASSERT_FALSE(plain.entries.empty());
    writeFile(dir.file("_dump_7.zst"), zstdOf(pickle));
    writeFile(dir.file("_dump_7.xz"), xzOf(pickle));
    for (const char* name : {"_dump_7.zst", "_dump_7.xz"}) {
        ASSERT_NE(detectFormat(dir.file(name)), nullptr) << name;
        EXPECT_EQ(detectFormat(dir.file(name))->name, "flight-recorder") << name;
        const FlightRecorderDump dump = readFlightRecorderDump(dir.file(name));
        EXPECT_EQ(dump.rank, plain.rank) << name;
        EXPECT_EQ(dump.entries.size(), plain.entries.size()) << name;
    }
}

TEST(DamagedInput, LargeCompressedLogsAreReadWhole) {
    ScratchDir dir;
    std::string text;
    for (int i = 0; i < 12000; ++i) text += "line " + std::to_string(i) + " " + std::string(static_cast<std::size_t>(i % 90), 'x') + "\n";
    writeFile(dir.file("big.zst"), zstdOf(text));
    writeFile(dir.file("big.xz"), xzOf(text));
    writeFile(dir.file("big.bz2"), bzip2Of(text));
    for (const char* name : {"big.zst", "big.xz", "big.bz2"}) {
        const std::vector<std::string> lines = linesOf(dir.file(name));
        ASSERT_EQ(lines.size(), 12000u) << name;
        EXPECT_EQ(lines[11999], "line 11999 " + std::string(11999 % 90, 'x')) << name;
    }
}

TEST(DamagedInput, ACutShortCompressedLogNamesTheFileAndTheDamage) {
    ScratchDir dir;
    const std::vector<std::pair<std::string, std::string>> files = {
        {"a.zst", zstdOf(kDmesgXid79).substr(0, 20)}, {"b.xz", xzOf(kDmesgXid79).substr(0, 40)}, {"c.bz2", bzip2Of(kDmesgXid79).substr(0, 30)}};
    for (const auto& [name, bytes] : files) {
        writeFile(dir.file(name), bytes);
        ImportOptions o;
        o.format = "kernel-log";
        const std::string message = errorOf([&] { importPaths({dir.file(name)}, o); });
        EXPECT_NE(message.find(dir.file(name) + ": byte "), std::string::npos) << message;
        EXPECT_NE(message.find("stream is damaged or cut short"), std::string::npos) << message;
    }
}

// A stream damaged from its first bytes fails where it is read, not where it is opened: in
// a folder it stays an unknown file beside the others, as before.
TEST(DamagedInput, AGzipDamagedFromItsStartIsUnknownInAFolder) {
    ScratchDir dir;
    writeFile(dir.file("bad.gz"), std::string("\x1f\x8b\x08\x00garbagegarbage"));
    writeFile(dir.file("node1.log"), kDmesgXid79);
    const ImportResult r = importPaths({dir.path()});
    EXPECT_EQ(r.run.failures.size(), 1u);
    ASSERT_EQ(r.summary.files.size(), 2u);
    EXPECT_EQ(r.summary.files[0].format, "unknown");
    ImportOptions o;
    o.format = "kernel-log";
    const std::string message = errorOf([&] { importPaths({dir.file("bad.gz")}, o); });
    EXPECT_EQ(message.rfind(dir.file("bad.gz") + ": byte 0 (decompressed): the gzip stream is damaged or cut short", 0), 0u) << message;
}

TEST(DamagedInput, Utf16SurrogatePairsAndCutUnitsBecomeUtf8) {
    std::string out;
    Utf16Decoder le(false);
    // "é" then U+1F600 as a surrogate pair, fed a byte at a time.
    const std::string bytes = std::string("\xe9\x00\x3d\xd8\x00\xde", 6);
    for (char c : bytes) le.decode(std::string_view(&c, 1), out);
    le.finish(out);
    EXPECT_EQ(out, "\xc3\xa9\xf0\x9f\x98\x80");
    out.clear();
    Utf16Decoder be(true);
    be.decode(std::string("\xd8\x3d\x00\x41", 4), out);  // a high surrogate without its low half
    be.finish(out);
    EXPECT_EQ(out, "\xef\xbf\xbd" "A");
}

// latin1-host-invalid-utf8.sh: the host name was stored as the bytes 6E E9 75 64...
TEST(DamagedInput, Latin1HostNamesAreStoredAsUtf8WithANote) {
    ScratchDir dir;
    const std::string path = dir.file("l1.log");
    writeFile(path, "Jan 21 04:41:44 n\xe9ud-17 kernel: NVRM: Xid (PCI:0000:ab:00): 74, pid=1, name=x, NVLink: fatal error\n");
    ImportOptions o;
    o.year = 2025;
    const ImportResult r = importPaths({path}, o);
    ASSERT_FALSE(r.run.topology.hosts.empty());
    EXPECT_EQ(r.run.topology.hosts[0].name, "n\xc3\xa9ud-17");
    for (const Host& h : r.run.topology.hosts) EXPECT_TRUE(validUtf8(h.name)) << h.name;
    EXPECT_TRUE(hasNote(r.summary.files[0], "1 line holds bytes that are not UTF-8 (the first is line 1): read as Latin-1"))
        << testing::PrintToString(r.summary.files[0].notes);
}

TEST(DamagedInput, Latin1ConversionKeepsValidUtf8AsItIs) {
    EXPECT_TRUE(validUtf8("plain ascii text, long enough for the word-at-a-time path"));
    EXPECT_TRUE(validUtf8("n\xc3\xa9ud \xf0\x9f\x98\x80"));
    EXPECT_FALSE(validUtf8("n\xe9ud"));
    EXPECT_FALSE(validUtf8("\xc0\xaf"));           // an overlong '/'
    EXPECT_FALSE(validUtf8("\xed\xa0\x80"));       // a surrogate
    EXPECT_EQ(latin1ToUtf8("caf\xc3\xa9 and caf\xe9"), "caf\xc3\xa9 and caf\xc3\xa9");
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// year-unnamed-dmesg-ctime.sh: format detection met the date and said "year 9999 is outside
// 1970-2262" naming neither the file nor the line.
TEST(DamagedInput, ACtimeDmesgLineInYear9999NamesTheFileAndLine) {
    ScratchDir dir;
    const std::string a = dir.file("a.log");
    writeFile(a, "[Sat Mar  4 04:10:52 9999] NVRM: Xid (PCI:0000:38:00): 79, pid=1, name=x, GPU has fallen off the bus.\n");
    std::string message = errorOf([&] { importPaths({a}); });
    EXPECT_NE(message.find(a + ":1: year 9999 is outside 1970-2262"), std::string::npos) << message;
    const std::string b = dir.file("b.log");
    writeFile(b, "[Sat Mar  4 04:10:52 2147483648] INFO: task python:1234 blocked for more than 120 seconds.\n");
    message = errorOf([&] { importPaths({b}); });
    EXPECT_EQ(message.rfind(b + ":", 0), 0u) << message;
    EXPECT_NE(message.find("year 2147483648 is outside 1970-2262"), std::string::npos) << message;
}

// gpu64-unnamed.sh: blocks of 65 rows without a GPU column made "GPU 64 on host ...", no file.
TEST(DamagedInput, NvidiaSmiBlocksPast64RowsNameTheFileAndLine) {
    ScratchDir dir;
    const std::string path = dir.file("node3.csv");
    std::string text = "timestamp, power.draw [W]\n";
    for (int sample = 0; sample < 3; ++sample)
        for (int row = 0; row < 65; ++row) {
            char line[96];
            std::snprintf(line, sizeof line, "2025/07/26 23:3%d:09.%03d, 69.32 W\n", sample, row);
            text += line;
        }
    writeFile(path, text);
    const std::string message = errorOf([&] { importPaths({path}); });
    EXPECT_NE(message.find(path + ":66: no GPU column, and the samples come in blocks of 65 rows: this row would be GPU 64, more than the 64 GPUs"),
              std::string::npos)
        << message;
}

// Label values: a newline is no host name, and dcgm-exporter's Hostname keeps its ':'.
TEST(DamagedInput, HostLabelsWithControlCharactersAreRefusedAndHostnamesKeptWhole) {
    ScratchDir dir;
    const std::string path = dir.file("scrape.prom");
    writeFile(path, "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
                    "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"pod:node7\"} 250 1737436233000\n"
                    "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"evil\\nhost\"} 250 1737436233000\n"
                    "DCGM_FI_DEV_POWER_USAGE{gpu=\"2\",UUID=\"GPU-c\",instance=\"10.0.0.5:9400\"} 250 1737436233000\n");
    const ImportResult r = importPaths({path});
    std::vector<std::string> hosts;
    for (const Host& h : r.run.topology.hosts) hosts.push_back(h.name);
    EXPECT_NE(std::find(hosts.begin(), hosts.end(), "pod:node7"), hosts.end()) << testing::PrintToString(hosts);
    EXPECT_NE(std::find(hosts.begin(), hosts.end(), "10.0.0.5"), hosts.end()) << testing::PrintToString(hosts);
    for (const std::string& h : hosts) EXPECT_EQ(h.find_first_of("\n\r\t"), std::string::npos) << h;
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 1);
    ASSERT_FALSE(f.warnings.empty());
    EXPECT_NE(f.warnings[0].find(path + ":3: label Hostname=\"evil\\nhost\" holds a newline or control character: not a host name"), std::string::npos)
        << f.warnings[0];
}

TEST(DamagedInput, PrometheusJsonHostLabelsAreCheckedToo) {
    ScratchDir dir;
    const std::string path = dir.file("range.json");
    writeFile(path, R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"DCGM_FI_DEV_POWER_USAGE","gpu":"0","UUID":"GPU-a","Hostname":"evil\u0007host"},"values":[[1737436233,"250"]]},
        {"metric":{"__name__":"DCGM_FI_DEV_POWER_USAGE","gpu":"1","UUID":"GPU-b","Hostname":"pod:node7"},"values":[[1737436233,"250"]]}]}})");
    const ImportResult r = importPaths({path});
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts[0].name, "pod:node7");
    const FileReport& f = r.summary.files.at(0);
    ASSERT_FALSE(f.warnings.empty());
    EXPECT_NE(f.warnings[0].find("label Hostname=\"evil\\x07host\" holds a newline or control character: not a host name"), std::string::npos)
        << f.warnings[0];
}

}  // namespace
}  // namespace faultline
