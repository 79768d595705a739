// The files that make Faultline a desktop app: the icon at each size, run files recognised by
// name and by content, the menu entry and the software centre's metadata, all valid.
#include "test_runs.h"

#include "model/run_file.h"

#include <QFile>
#include <QImage>
#include <QMimeDatabase>
#include <QXmlStreamReader>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::ScratchDir;

const std::string kSource = FAULTLINE_SOURCE_DIR;

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool haveTool(const std::string& tool) { return test::runCommand("command -v " + tool + " >/dev/null", false).status == 0; }

TEST(DesktopFiles, IconIsDrawnAtEverySizeItClaims) {
    QXmlStreamReader svg(QByteArray::fromStdString(readFile(kSource + "/resources/icons/faultline.svg")));
    while (!svg.atEnd()) svg.readNext();
    EXPECT_FALSE(svg.hasError()) << svg.errorString().toStdString();
    for (int size : {16, 24, 32, 48, 64, 128, 256, 512}) {
        const QImage icon(QString::fromStdString(kSource + "/resources/icons/faultline-" + std::to_string(size) + ".png"));
        ASSERT_FALSE(icon.isNull()) << size;
        EXPECT_EQ(icon.size(), QSize(size, size));
        EXPECT_TRUE(icon.hasAlphaChannel()) << "rounded corners show the desktop through";
        // Drawn: the middle is opaque, the corner transparent, and the failed GPU is red.
        EXPECT_EQ(icon.pixelColor(size / 2 - size / 8, size / 2).alpha(), 255) << size;
        EXPECT_EQ(icon.pixelColor(0, 0).alpha(), 0) << size;
        if (size >= 64) {
            const QColor failed = icon.pixelColor(size * 56 / 128, size * 58 / 128);
            EXPECT_GT(failed.red(), 150) << size;
            EXPECT_LT(failed.green(), 100) << size;
        }
    }
}

// Run files by name and by content, through the MIME database as an installed system has it:
// the package's definition merged with the freedesktop.org one by update-mime-database (the
// dpkg trigger does the same), which is what file managers read.
class MimeType : public ::testing::Test {
protected:
    static constexpr const char* kSystemTypes = "/usr/share/mime/packages/freedesktop.org.xml";
    static void SetUpTestSuite() {
        if (!haveTool("update-mime-database") || !std::filesystem::exists(kSystemTypes)) return;
        static ScratchDir* data = new ScratchDir;  // outlives the QMimeDatabase singleton
        std::filesystem::create_directories(data->path() / "share/mime/packages");
        std::filesystem::create_directories(data->path() / "home");
        std::filesystem::copy_file(kSource + "/resources/faultline.xml", data->path() / "share/mime/packages/faultline.xml");
        std::filesystem::copy_file(kSystemTypes, data->path() / "share/mime/packages/freedesktop.org.xml");
        ASSERT_EQ(test::runCommand("update-mime-database " + (data->path() / "share/mime").string() + " 2>&1").status, 0);
        setenv("XDG_DATA_DIRS", (data->path() / "share").c_str(), 1);
        setenv("XDG_DATA_HOME", (data->path() / "home").c_str(), 1);
        s_ready = true;
    }
    void SetUp() override {
        if (!s_ready) GTEST_SKIP() << "needs update-mime-database and " << kSystemTypes << " (apt-get install shared-mime-info)";
    }
    static inline bool s_ready = false;
};

TEST_F(MimeType, RunFilesAreKnownByTheirContentEvenWhenRenamed) {
    ScratchDir dir;
    writeRunFile(test::tinyRun(), dir.file("run.faultline"));
    std::filesystem::copy_file(dir.file("run.faultline"), dir.file("run-without-its-name.db"));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.file("plain.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);

    QMimeDatabase mime;
    const QMimeType runType = mime.mimeTypeForName("application/x-faultline-run");
    ASSERT_TRUE(runType.isValid()) << "faultline.xml not read";
    EXPECT_EQ(runType.comment().toStdString(), "Faultline training run");
    EXPECT_TRUE(runType.inherits("application/vnd.sqlite3"));
    EXPECT_EQ(runType.globPatterns(), QStringList{"*.faultline"});

    auto typeOf = [&](const std::string& name, QMimeDatabase::MatchMode mode) {
        return mime.mimeTypeForFile(QString::fromStdString(dir.file(name)), mode).name().toStdString();
    };
    EXPECT_EQ(typeOf("run.faultline", QMimeDatabase::MatchDefault), "application/x-faultline-run");
    EXPECT_EQ(typeOf("run-without-its-name.db", QMimeDatabase::MatchContent), "application/x-faultline-run");
    EXPECT_EQ(typeOf("run-without-its-name.db", QMimeDatabase::MatchDefault), "application/x-faultline-run");
    EXPECT_EQ(typeOf("plain.db", QMimeDatabase::MatchContent), "application/vnd.sqlite3") << "other SQLite files are not runs";
}

TEST(DesktopFiles, MenuEntryOpensRunFilesWithTheIcon) {
    const std::string entry = readFile(kSource + "/resources/faultline.desktop");
    EXPECT_NE(entry.find("\nExec=faultline %f\n"), std::string::npos);
    EXPECT_NE(entry.find("\nIcon=faultline\n"), std::string::npos);
    EXPECT_NE(entry.find("\nMimeType=application/x-faultline-run;\n"), std::string::npos);
    if (!haveTool("desktop-file-validate")) GTEST_SKIP() << "desktop-file-validate is not installed (apt-get install desktop-file-utils)";
    const test::CommandResult r = test::runCommand("desktop-file-validate " + kSource + "/resources/faultline.desktop");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output, "") << "not even a hint";
}

TEST(DesktopFiles, AppStreamMetadataIsValidForThisRelease) {
    const std::string metainfo = readFile(FAULTLINE_METAINFO);
    ASSERT_FALSE(metainfo.empty()) << FAULTLINE_METAINFO;
    EXPECT_NE(metainfo.find(std::string("<id>") + FAULTLINE_APP_ID + "</id>"), std::string::npos);
    EXPECT_NE(metainfo.find(std::string("<launchable type=\"desktop-id\">") + FAULTLINE_APP_ID + ".desktop</launchable>"), std::string::npos);
    EXPECT_NE(metainfo.find(std::string("<release version=\"") + FAULTLINE_EXPECTED_VERSION + "\""), std::string::npos)
        << "release notes for this version";
    std::size_t screenshots = 0;
    for (std::size_t at = 0; (at = metainfo.find("<image>", at)) != std::string::npos; ++at) {
        ++screenshots;
        const std::size_t end = metainfo.find("</image>", at);
        const std::string url = metainfo.substr(at + 7, end - at - 7);
        const std::string file = url.substr(url.rfind('/') + 1);
        EXPECT_TRUE(std::filesystem::exists(kSource + "/docs/" + file)) << url << ": no docs/" << file << " to publish";
    }
    EXPECT_GE(screenshots, 3u);
    if (!haveTool("appstreamcli")) GTEST_SKIP() << "appstreamcli is not installed (apt-get install appstream)";
    const test::CommandResult r = test::runCommand(std::string("appstreamcli validate --no-net ") + FAULTLINE_METAINFO);
    EXPECT_EQ(r.status, 0) << r.output;
}

TEST(DesktopFiles, DebianChangelogIsForThisVersion) {
    const std::string changelog = readFile(kSource + "/packaging/changelog");
    EXPECT_EQ(changelog.rfind(std::string("faultline (") + FAULTLINE_EXPECTED_VERSION + ") ", 0), 0u) << "first entry: this version";
    const std::string copyright = readFile(kSource + "/packaging/copyright");
    EXPECT_EQ(copyright.rfind("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/", 0), 0u);
}

}  // namespace
}  // namespace faultline
