#pragma once
// Evidence is never destroyed. Before any command writes a file it asks here whether it may:
// an output is never one of the command's inputs (the same file by device and inode, however
// the path reaches it: `..`, a symbolic link, a hard link), never anything but a regular file
// (a FIFO, a device, a folder, a link to one, anything under /dev or /proc), never a reviewer's
// notes (the review of an input run, or any review file), and replaces an existing file only when that file is of its
// own kind (a run file over a run file, a PNG over a PNG), unless the user forces it. A
// symbolic link is not replaced unless forced, and never written through: what passes is
// written beside the target and renamed into place (model/partial_file.h).
#include <string>
#include <vector>

namespace faultline {

enum class OutputKind { RunFile, ReviewFile, ShardFile, Png, Svg, Pdf, Html, Mp4, Csv, Json };

// "a run file", "a PNG picture": for messages.
const char* outputKindName(OutputKind kind);

// Whether the file at `path` holds content of `kind`, read from its first bytes (a run file's
// SQLite header and application id, a PNG's signature...). An empty file holds any kind.
bool holdsOutputKind(const std::string& path, OutputKind kind);

// Whether `path` is under /dev, /proc or /sys, as named or through its links: never written.
bool isSystemPath(const std::string& path);

// Throws Error naming `target` and why it may not be written as `kind` by a command that reads
// `inputs` (files or folders: a file inside an input folder is an input too). With `force`,
// an existing regular file or symbolic link to one, of another kind, may be replaced. Never,
// with or without `force`: an input; the review of an input run (RUN.faultline-review, or
// where reviewFilePath puts it), there or not yet; any Faultline review file; anything not a
// regular file, or a link to one; a path under /dev, /proc or /sys. Those refusals do not
// suggest --force.
void checkOutput(const std::string& target, OutputKind kind, const std::vector<std::string>& inputs, bool force = false);

}  // namespace faultline
