// importers/text/json_pull.h on its own: the tokens the Prometheus JSON reader pulls, their
// text across chunk ends, skipped values, and the messages of a broken file.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/text/json_limits.h"
#include "importers/text/json_pull.h"

#include <zlib.h>

#include <fstream>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::ScratchDir;
using Token = JsonPull::Token;

// The tokens as "{", "}", "[", "]", "s:TEXT", "n:TEXT", "l:TEXT", up to the end.
std::vector<std::string> tokensOf(const std::string& path) {
    JsonPull json(path);
    std::vector<std::string> out;
    for (Token t = json.next(); t != Token::End; t = json.next()) {
        switch (t) {
            case Token::BeginObject: out.push_back("{"); break;
            case Token::EndObject: out.push_back("}"); break;
            case Token::BeginArray: out.push_back("["); break;
            case Token::EndArray: out.push_back("]"); break;
            case Token::String: out.push_back("s:" + std::string(json.text())); break;
            case Token::Number: out.push_back("n:" + std::string(json.text())); break;
            case Token::Literal: out.push_back("l:" + std::string(json.text())); break;
            case Token::End: break;
        }
    }
    return out;
}

using Tokens = std::vector<std::string>;

TEST(JsonPull, GivesEveryTokenWithItsText) {
    ScratchDir dir;
    const std::string doc = R"({"status": "success", "data": {"result": [{"values": [[1718000000.5, "42"], [-1, "1e3"]]}], "ok": true, "none": null, "no": false}})";
    EXPECT_EQ(tokensOf(writeFile(dir, "q.json", doc)),
              (Tokens{"{", "s:status", "s:success", "s:data", "{", "s:result", "[", "{", "s:values", "[", "[", "n:1718000000.5", "s:42", "]",
                      "[", "n:-1", "s:1e3", "]", "]", "}", "]", "s:ok", "l:true", "s:none", "l:null", "s:no", "l:false", "}", "}"}));
    // A value alone, ending at the end of the file without a delimiter after it.
    EXPECT_EQ(tokensOf(writeFile(dir, "n.json", "  42")), (Tokens{"n:42"}));
    EXPECT_TRUE(tokensOf(writeFile(dir, "empty.json", " \n")).empty());
}

TEST(JsonPull, EscapesAreUnescapedToUtf8) {
    ScratchDir dir;
    const std::string doc = R"(["a\"b\\c\/d", "tab\there\nnew", "\u00e9\u20ac\u0041"])";
    EXPECT_EQ(tokensOf(writeFile(dir, "e.json", doc)), (Tokens{"[", "s:a\"b\\c/d", "s:tab\there\nnew", "s:\xC3\xA9\xE2\x82\xAC" "A", "]"}));
}

TEST(JsonPull, StringsAndNumbersAcrossChunkEndsComeWhole) {
    ScratchDir dir;
    // The reader's chunk is 1 MB: an escape whose backslash is the last byte of the first
    // chunk, a string of 3 MB, and a number after 5 MB of the file.
    const std::size_t chunk = 1u << 20;
    const std::string big(3u << 20, 'x');
    const std::string beforeEscape(chunk - 3, 'y');  // '[' and '"' come first
    std::string doc = "[\"" + beforeEscape + "\\n\", \"" + big + "\", ";
    const std::string number = "123456789.25";
    doc += std::string(chunk * 5 - doc.size() - 4, ' ') + number + "]";
    JsonPull json(writeFile(dir, "chunks.json", doc));
    ASSERT_EQ(json.next(), Token::BeginArray);
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), beforeEscape + "\n");
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), big);
    ASSERT_EQ(json.next(), Token::Number);
    EXPECT_EQ(json.text(), number);
    EXPECT_EQ(json.next(), Token::EndArray);
    EXPECT_EQ(json.next(), Token::End);
    EXPECT_EQ(json.offset(), doc.size());
}

TEST(JsonPull, SkipValueSkipsAWholeObjectOrArrayAndNothingElse) {
    ScratchDir dir;
    JsonPull json(writeFile(dir, "s.json", R"({"skip": {"x": [1, {"y": [2, 3]}], "z": "}"}, "keep": 7, "also": "s"})"));
    ASSERT_EQ(json.next(), Token::BeginObject);
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), "skip");
    json.skipValue(json.next());
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), "keep");
    json.skipValue(json.next());  // a number: nothing more to skip
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), "also");
    ASSERT_EQ(json.next(), Token::String);
    EXPECT_EQ(json.text(), "s");
    EXPECT_EQ(json.next(), Token::EndObject);
    EXPECT_EQ(json.next(), Token::End);
}

TEST(JsonPull, ABrokenFileIsNamedWithTheByteWhereItBroke) {
    ScratchDir dir;
    auto errorFor = [&](const std::string& name, const std::string& doc) {
        const std::string path = writeFile(dir, name, doc);
        return errorOf([&] {
            JsonPull json(path);
            while (json.next() != Token::End) {
            }
        });
    };
    EXPECT_EQ(errorFor("cut.json", R"({"a": [1, 2)"), dir.file("cut.json") + ": byte 11: the file ends inside an object or array: it is cut short");
    EXPECT_EQ(errorFor("string.json", R"(["abc)"), dir.file("string.json") + ": byte 1: the file ends inside a string");
    EXPECT_EQ(errorFor("at.json", R"({"a": @})"), dir.file("at.json") + ": byte 6: unexpected '@' (expected a JSON value)");
    EXPECT_EQ(errorFor("literal.json", "[tru]"), dir.file("literal.json") + ": byte 4: unexpected \"tru\" (expected a JSON value)");
    EXPECT_EQ(errorFor("close.json", "[1]]"), dir.file("close.json") + ": byte 3: unexpected ']'");
    const std::string deep = errorFor("deep.json", std::string(kMaxJsonDepth + 1, '['));
    EXPECT_NE(deep.find(dir.file("deep.json") + ": byte " + std::to_string(kMaxJsonDepth) + ": JSON nested deeper than 512 levels"), std::string::npos)
        << deep;
    // skipValue on a value the file cuts short says so too.
    const std::string path = writeFile(dir, "skipcut.json", R"({"a": {"b": [1)");
    JsonPull json(path);
    ASSERT_EQ(json.next(), Token::BeginObject);
    ASSERT_EQ(json.next(), Token::String);
    const std::string msg = errorOf([&] { json.skipValue(json.next()); });
    EXPECT_NE(msg.find(path + ": byte "), std::string::npos) << msg;
    EXPECT_NE(msg.find("cut short"), std::string::npos) << msg;
}

TEST(JsonPull, AGzipFileGivesTheTokensOfItsText) {
    ScratchDir dir;
    std::string doc = "{\"values\": [";
    for (int i = 0; i < 100'000; ++i) doc += (i ? ", " : "") + std::string("[") + std::to_string(1718000000 + i) + ".5, \"" + std::to_string(i % 977) + "\"]";
    doc += "]}";
    const std::string plain = writeFile(dir, "v.json", doc);
    const std::string packed = dir.file("v.json.gz");
    gzFile gz = gzopen(packed.c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    ASSERT_EQ(gzwrite(gz, doc.data(), static_cast<unsigned>(doc.size())), static_cast<int>(doc.size()));
    gzclose(gz);
    const Tokens tokens = tokensOf(plain);
    ASSERT_EQ(tokens.size(), 5u + 100'000u * 4u);
    EXPECT_EQ(tokens[4], "n:1718000000.5");
    EXPECT_EQ(tokensOf(packed), tokens);
}

}  // namespace
}  // namespace faultline
