// importers/text/line_reader.h on its own: the lines every text reader is handed, whatever
// the line ends, the last line, the chunk ends and the compression.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/text/line_reader.h"

#include <zlib.h>

#include <fstream>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::ScratchDir;

std::string writeGzipFile(const ScratchDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.file(name);
    gzFile gz = gzopen(path.c_str(), "wb");
    EXPECT_NE(gz, nullptr);
    EXPECT_EQ(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
    gzclose(gz);
    return path;
}

// Every line the reader gives, with the number it says each has.
std::vector<std::pair<std::int64_t, std::string>> numberedLinesOf(const std::string& path) {
    LineReader reader(path);
    std::vector<std::pair<std::int64_t, std::string>> out;
    std::string_view line;
    while (reader.next(line)) out.emplace_back(reader.lineNumber(), std::string(line));
    return out;
}

using Lines = std::vector<std::pair<std::int64_t, std::string>>;

TEST(LineReader, WindowsLineEndsAreTakenOffAndLinesNumberedFromOne) {
    ScratchDir dir;
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "crlf.log", "first\r\nsecond\r\n\r\nfourth\r\n")),
              (Lines{{1, "first"}, {2, "second"}, {3, ""}, {4, "fourth"}}));
    // A '\r' inside a line is the line's own (a progress bar's redraw): only the last one goes.
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "redraw.log", "10%\r50%\r100%\r\nnext\n")), (Lines{{1, "10%\r50%\r100%"}, {2, "next"}}));
}

TEST(LineReader, TheLastLineWithoutANewlineIsStillALine) {
    ScratchDir dir;
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "cut.log", "one\ntwo")), (Lines{{1, "one"}, {2, "two"}}));
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "cut-crlf.log", "one\r\ntwo\r")), (Lines{{1, "one"}, {2, "two"}}));
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "single.log", "only")), (Lines{{1, "only"}}));
    EXPECT_TRUE(numberedLinesOf(writeFile(dir, "empty.log", "")).empty());
    EXPECT_EQ(numberedLinesOf(writeFile(dir, "blank.log", "\n")), (Lines{{1, ""}}));
}

TEST(LineReader, LinesAcrossChunkEndsAndLongerThanAChunkComeWhole) {
    ScratchDir dir;
    // Lines of every length from 1 to 3,000 bytes: over 4 MB, so the 1 MB chunks end inside
    // lines again and again; then one line of 3 MB, longer than a chunk.
    std::string text;
    Lines expected;
    for (int n = 1; n <= 3000; ++n) {
        std::string line(static_cast<std::size_t>(n), static_cast<char>('a' + n % 26));
        text += line + (n % 2 ? "\n" : "\r\n");
        expected.emplace_back(n, std::move(line));
    }
    const std::string longLine(3u << 20, 'L');
    text += longLine + "\nafter";
    expected.emplace_back(3001, longLine);
    expected.emplace_back(3002, "after");
    const Lines got = numberedLinesOf(writeFile(dir, "long.log", text));
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "line " << i + 1;
}

TEST(LineReader, ALineBeyondTheLimitIsRefusedNamingTheFileAndLine) {
    ScratchDir dir;
    const std::string path = writeFile(dir, "blob.bin", "one\ntwo\n" + std::string(kMaxLineBytes + 16, 'x'));
    LineReader reader(path);
    std::string_view line;
    ASSERT_TRUE(reader.next(line));
    ASSERT_TRUE(reader.next(line));
    const std::string msg = errorOf([&] { reader.next(line); });
    EXPECT_EQ(msg, path + ":3: line longer than 64 MB; this is not a line-oriented text file");
}

TEST(LineReader, AGzipFileGivesTheLinesOfItsText) {
    ScratchDir dir;
    std::string text;
    for (int n = 0; n < 200'000; ++n) text += "line " + std::to_string(n) + (n % 3 ? "\n" : "\r\n");  // ~2 MB unpacked
    text += "last, no newline";
    const Lines plain = numberedLinesOf(writeFile(dir, "big.log", text));
    const Lines packed = numberedLinesOf(writeGzipFile(dir, "big.log.gz", text));
    ASSERT_EQ(plain.size(), 200'001u);
    EXPECT_EQ(plain.back(), (std::pair<std::int64_t, std::string>{200'001, "last, no newline"}));
    EXPECT_EQ(packed, plain);
}

TEST(LineReader, MessagesNameTheFileAndTheCurrentLine) {
    ScratchDir dir;
    const std::string path = writeFile(dir, "m.log", "a\nb\nc\n");
    LineReader reader(path);
    std::string_view line;
    ASSERT_TRUE(reader.next(line));
    ASSERT_TRUE(reader.next(line));
    EXPECT_EQ(reader.where(), path + ":2");
    EXPECT_EQ(errorOf([&] { reader.fail("no time on this line"); }), path + ":2: no time on this line");
    ASSERT_TRUE(reader.next(line));
    EXPECT_FALSE(reader.next(line));
    EXPECT_FALSE(reader.next(line)) << "the end stays the end";
    EXPECT_DOUBLE_EQ(reader.progress(), 1.0);
}

}  // namespace
}  // namespace faultline
