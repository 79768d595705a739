#include "model/output_guard.h"

#include "model/error.h"
#include "model/path_inside.h"
#include "model/review_file.h"
#include "model/run_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace faultline {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kSniffBytes = 4096;

std::string firstBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes(kSniffBytes, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return bytes;
}

std::int32_t bigEndian32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return static_cast<std::int32_t>(v);
}

// An SQLite database whose header carries `applicationId` (the 4 bytes at offset 68).
bool isSqliteApp(const std::string& bytes, std::int32_t applicationId) {
    return bytes.size() >= 72 && bytes.compare(0, 16, std::string("SQLite format 3\0", 16)) == 0 &&
           bigEndian32(bytes, 68) == applicationId;
}

std::string lowerTrimmedStart(const std::string& bytes) {
    std::size_t i = 0;
    if (bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // a UTF-8 byte-order mark
    while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
    std::string out = bytes.substr(i, 256);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Text a spreadsheet would read as a table: no NUL byte, and a first line with a comma.
bool looksLikeCsv(const std::string& bytes) {
    if (bytes.find('\0') != std::string::npos) return false;
    const std::string firstLine = bytes.substr(0, bytes.find('\n'));
    return firstLine.find(',') != std::string::npos;
}

const char* fileTypeName(const struct stat& st) {
    if (S_ISDIR(st.st_mode)) return "a folder";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    if (S_ISCHR(st.st_mode)) return "a character device";
    if (S_ISBLK(st.st_mode)) return "a block device";
    return "not a regular file";
}

bool sameFile(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// Whether `target` (which exists) is `input`, or a file inside the input folder.
bool isInput(const std::string& target, const struct stat& targetStat, const std::string& input) {
    struct stat in {};
    if (::stat(input.c_str(), &in) != 0) return false;
    if (sameFile(in, targetStat)) return true;
    return S_ISDIR(in.st_mode) && isInsideFolder(target, input);
}

}  // namespace

const char* outputKindName(OutputKind kind) {
    switch (kind) {
    case OutputKind::RunFile: return "a Faultline run file";
    case OutputKind::ReviewFile: return "a Faultline review file";
    case OutputKind::ShardFile: return "a Faultline shard";
    case OutputKind::Png: return "a PNG picture";
    case OutputKind::Svg: return "an SVG picture";
    case OutputKind::Pdf: return "a PDF document";
    case OutputKind::Html: return "an HTML page";
    case OutputKind::Mp4: return "an MP4 video";
    case OutputKind::Csv: return "a CSV table";
    case OutputKind::Json: return "a JSON trace";
    }
    return "a file";
}

bool holdsOutputKind(const std::string& path, OutputKind kind) {
    const std::string bytes = firstBytes(path);
    if (bytes.empty()) return true;  // an empty file holds nothing to lose
    switch (kind) {
    case OutputKind::RunFile: return isSqliteApp(bytes, kRunFileApplicationId);
    case OutputKind::ReviewFile: return isSqliteApp(bytes, kReviewFileApplicationId);
    case OutputKind::ShardFile: return bytes.compare(0, 15, "SQLite format 3") == 0;
    case OutputKind::Png: return bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
    case OutputKind::Svg: return lowerTrimmedStart(bytes).find("<svg") != std::string::npos || bytes.find("<svg") != std::string::npos;
    case OutputKind::Pdf: return bytes.compare(0, 5, "%PDF-") == 0;
    case OutputKind::Html: {
        const std::string start = lowerTrimmedStart(bytes);
        return start.rfind("<!doctype html", 0) == 0 || start.rfind("<html", 0) == 0;
    }
    case OutputKind::Mp4: return bytes.size() >= 8 && bytes.compare(4, 4, "ftyp") == 0;
    case OutputKind::Csv: return looksLikeCsv(bytes);
    case OutputKind::Json: {
        const std::string start = lowerTrimmedStart(bytes);
        return !start.empty() && (start[0] == '{' || start[0] == '[');
    }
    }
    return false;
}

bool isSystemPath(const std::string& path) {
    std::error_code ec;
    auto under = [](const fs::path& p) {
        const std::string text = p.lexically_normal().string();
        for (const char* root : {"/dev", "/proc", "/sys"})
            if (text == root || text.rfind(std::string(root) + "/", 0) == 0) return true;
        return false;
    };
    const fs::path absolute = fs::absolute(path, ec);
    if (ec) return false;
    if (under(absolute)) return true;
    const fs::path resolved = fs::weakly_canonical(absolute, ec);  // through links: /tmp/x -> /dev/stdout -> /proc/self/fd/1
    return !ec && under(resolved);
}

namespace {

// The input whose review `target` is (beside it, or in the user's review folder), or "".
std::string reviewedInput(const std::string& target, const std::vector<std::string>& inputs) {
    std::error_code ec;
    const fs::path wanted = fs::weakly_canonical(fs::absolute(target, ec), ec);
    if (ec) return {};
    for (const std::string& input : inputs) {
        if (fs::is_directory(input, ec)) continue;
        for (const std::string& review : {input + "-review", reviewFilePath(input)}) {
            std::error_code rec;
            if (fs::weakly_canonical(fs::absolute(review, rec), rec) == wanted && !rec) return input;
        }
    }
    return {};
}

}  // namespace

void checkOutput(const std::string& target, OutputKind kind, const std::vector<std::string>& inputs, bool force) {
    if (target.empty()) throw Error("no output file was named");
    // Refused whatever is given: --force replaces files, never the system's devices, nor
    // what a reviewer wrote.
    if (isSystemPath(target)) {
        struct stat st {};
        const bool special = ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
        throw Error(target + " is " + (special ? std::string(fileTypeName(st)) + ", " : std::string()) +
                    "a file of the system (under /dev, /proc or /sys): never written; name a regular file");
    }
    if (const std::string run = reviewedInput(target, inputs); !run.empty())
        throw Error(target + " is the review of " + run + " (a reviewer's notes and viewpoints), read with it: never written over; name another output file");
    struct stat link {};
    if (::lstat(target.c_str(), &link) != 0) {
        // Nothing there yet: only a folder to write into is needed (checked by the writer).
        return;
    }
    struct stat resolved {};
    const bool resolves = ::stat(target.c_str(), &resolved) == 0;
    if (resolves)
        for (const std::string& input : inputs)
            if (isInput(target, resolved, input))
                throw Error(target + " is " + (input == target ? "an input" : "the input " + input) +
                            " of this command: writing it would destroy what is read; name another output file");
    if (S_ISLNK(link.st_mode)) {
        std::error_code ec;
        const fs::path to = fs::read_symlink(target, ec);
        const std::string toText = ec ? std::string() : " to " + to.string();
        if (resolves && !S_ISREG(resolved.st_mode))
            throw Error(target + " is a symbolic link" + toText + ", which is " + fileTypeName(resolved) + ": never replaced; name a regular file");
        if (resolves && holdsOutputKind(target, OutputKind::ReviewFile) && kind != OutputKind::ReviewFile && !firstBytes(target).empty())
            throw Error(target + " is a symbolic link" + toText + ", a Faultline review file (a reviewer's notes): never replaced; name another output file");
        if (force) return;  // the link itself is replaced by the rename, never written through
        throw Error(target + " is a symbolic link" + toText + ": not written through; name the file itself, or give --force to replace the link");
    }
    if (!S_ISREG(link.st_mode)) throw Error(target + " is " + fileTypeName(link) + ": only a regular file can be written");
    // A review of any run holds what no command can make again.
    if (kind != OutputKind::ReviewFile && !firstBytes(target).empty() && holdsOutputKind(target, OutputKind::ReviewFile))
        throw Error(target + " is a Faultline review file (a reviewer's notes and viewpoints): never written over; name another output file");
    if (force) return;
    if ((link.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(target.c_str(), W_OK) != 0)
        throw Error(target + " is read-only: not replaced; give --force to replace it");
    if (!holdsOutputKind(target, kind))
        throw Error(target + " exists and is not " + outputKindName(kind) + ": not replaced; name another file, or give --force to replace it");
}

}  // namespace faultline
