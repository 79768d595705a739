#include "importers/folder_follower.h"

#include "analysis/stored_figures.h"
#include "importers/import_invariants.h"
#include "importers/text/byte_source.h"
#include "importers/text/parallel_files.h"
#include "model/error.h"
#include "model/path_inside.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

namespace {

namespace fs = std::filesystem;

// A file whose last line has no end waits at most this many looks in a row for it: a log
// written faster than it is looked at always ends mid-line, and must still be read.
constexpr int kLooksWaitedForALine = 2;

// Whether the file's text stops mid-line: its last byte is no newline. A compressed file
// is whole or unreadable (then it waits as a file that cannot be read yet).
bool endsMidLine(const std::string& path, std::uint64_t size) {
    if (size == 0) return false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    char magic[6] = {};
    const ssize_t got = ::pread(fd, magic, sizeof magic, 0);
    char last = '\n';
    const bool plain = got > 0 && compressionOf(std::string_view(magic, static_cast<std::size_t>(got))) == Compression::None;
    if (plain && ::pread(fd, &last, 1, static_cast<off_t>(size - 1)) != 1) last = '\n';
    ::close(fd);
    return plain && last != '\n';
}


}  // namespace

FolderFollower::FolderFollower(std::vector<std::string> inputs, std::string output, ImportOptions options)
    : m_inputs(std::move(inputs)), m_output(std::move(output)), m_options(std::move(options)) {
    if (m_inputs.empty()) throw Error("nothing to follow: name the job's folder");
    // A run file inside the folder would be listed as evidence at the next look.
    for (const std::string& input : m_inputs) {
        std::error_code ec;
        if (fs::is_directory(input, ec) && isInsideFolder(m_output, input))
            throw Error(m_output + ": the run file cannot be written inside the folder it follows (" + input + "): write it beside the folder");
    }
}

FolderFollower::Look FolderFollower::look(bool last) {
    Look look;
    const auto began = std::chrono::steady_clock::now();
    auto secondsSince = [](std::chrono::steady_clock::time_point t) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count(); };
    ListedImport listed = listImportFiles(m_inputs, m_options);
    look.folders = std::move(listed.folders);
    look.files.reserve(listed.files.size());
    for (const ListedFile& f : listed.files) look.files.push_back(f.path);
    std::map<std::string, Kept> now;
    std::vector<ListedFile> toRead;
    std::vector<std::size_t> orders;
    std::vector<std::pair<std::string, std::size_t>> grown;  // console logs to read on: path, order
    bool anyGone = false;
    for (std::size_t i = 0; i < listed.files.size(); ++i) {
        const ListedFile& f = listed.files[i];
        const Mark mark = markOf(f.path);
        if (mark == Mark{}) continue;  // gone since it was listed: the next look sees it so
        Kept kept;
        if (auto it = m_kept.find(f.path); it != m_kept.end()) kept = std::move(it->second);
        if (kept.file) kept.file->order = i;
        const bool unchangedSinceSeen = kept.seen == mark;
        kept.seen = mark;
        if (kept.file && kept.mark == mark) {
            // Read on as far as its lines end: an unended last line that no longer changes is
            // read whole, as below.
            if (!last && kept.growing && kept.growing->lineWaits() && !kept.tailRead) {
                if (++kept.looksWaited >= kLooksWaitedForALine) {
                    toRead.push_back(f);
                    toRead.back().size = mark.size;
                    orders.push_back(i);
                } else {
                    look.waiting.push_back(f.path + ": its last line is not ended yet");
                }
            } else if (last && kept.growing && kept.growing->lineWaits()) {
                grown.emplace_back(f.path, i);
            }
            now.emplace(f.path, std::move(kept));
            continue;
        }
        if (kept.growing && (kept.growingDevice != mark.device || kept.growingInode != mark.inode))
            kept.growing.reset();  // replaced (a rotation): read from its start
        // A console log that grew since it was read: read on from where it was.
        if ((!kept.unreadable || !unchangedSinceSeen || last) && readsOn(kept, f)) {
            grown.emplace_back(f.path, i);
            now.emplace(f.path, std::move(kept));
            continue;
        }
        if (!last && kept.unreadable && unchangedSinceSeen) {
            look.waiting.push_back(f.path + ": cannot be read yet (" + kept.unreadable->substr(0, 200) + "); read again when it changes");
            now.emplace(f.path, std::move(kept));
            continue;
        }
        if (!last && kept.looksWaited < kLooksWaitedForALine && endsMidLine(f.path, mark.size)) {
            ++kept.looksWaited;
            look.waiting.push_back(f.path + ": its last line is not ended yet");
            now.emplace(f.path, std::move(kept));
            continue;
        }
        toRead.push_back(f);
        toRead.back().size = mark.size;
        orders.push_back(i);
        now.emplace(f.path, std::move(kept));
    }
    for (const auto& [path, kept] : m_kept)
        if (kept.file && !now.count(path)) anyGone = true;
    readGrowing(grown, now, last, look, toRead, orders, listed.files);

    readWhole(toRead, orders, now, last, look);
    m_kept = std::move(now);
    // The files as read so far, lent to the followed source and to the build, which copies what
    // it takes: the next look reads them again.
    std::vector<const ShardedFile*> files;
    for (const auto& [path, kept] : m_kept)
        if (kept.file) files.push_back(&*kept.file);
    if (m_source) {
        try {
            if (m_source->refresh(files, last)) m_sourceUnwritten = true;
        } catch (const Error& e) {
            look.sourceProblem = e.what();
        }
    }
    if (look.filesRead == 0 && !anyGone && !m_sourceUnwritten && !(last && !m_everWritten)) return look;

    look.readSeconds = secondsSince(began);
    if (!last && std::none_of(files.begin(), files.end(), [](const ShardedFile* f) { return f->report.format != "unknown"; })) {
        look.waiting.push_back(listed.label + ": no file in a format Faultline reads yet");
        return look;
    }
    const auto building = std::chrono::steady_clock::now();
    ImportResult result = buildLentImport(files, m_source ? m_source->sources() : std::vector<const ShardedFile*>{}, m_options, listed.runName, listed.label, listed.warnings);
    if (m_source) result.pulls = m_source->pulls();
    look.buildSeconds = secondsSince(building);
    const auto writing = std::chrono::steady_clock::now();
    write(result, last);
    look.writeSeconds = secondsSince(writing);
    m_everWritten = true;
    m_sourceUnwritten = false;
    look.written = true;
    for (Incident& incident : buildIncidents(result.run))
        if (m_told.insert({result.run.info.startEpochNs + incident.begin, incident.hardware}).second) look.newIncidents.push_back(std::move(incident));
    look.info = result.run.info;
    m_writtenRankSteps = std::move(result.run.rankSteps);  // written: what the next look compares with
    look.summary = std::move(result.summary);
    look.summary.output = m_output;
    return look;
}

void FolderFollower::readGrowing(const std::vector<std::pair<std::string, std::size_t>>& grown, std::map<std::string, Kept>& now, bool last, Look& look,
                                 std::vector<ListedFile>& whole, std::vector<std::size_t>& wholeOrders, const std::vector<ListedFile>& listed) {
    std::vector<Kept*> kept(grown.size());
    for (std::size_t i = 0; i < grown.size(); ++i) kept[i] = &now.at(grown[i].first);
    std::vector<std::optional<ShardedFile>> read(grown.size());
    std::vector<std::string> errors(grown.size());
    std::vector<char> readWhole(grown.size(), 0);
    std::vector<std::uint64_t> bytes(grown.size(), 0);
    forEachFileInParallel(grown.size(), m_options.workers, [&](std::size_t i) {
        std::unique_ptr<GrowingConsoleLog>& growing = kept[i]->growing;
        std::uint64_t before = growing ? growing->bytesRead() : 0;
        try {
            // Read from its start when it is new to this reader, was cut short or rewritten, or its
            // first new line goes on one read before.
            if (!growing || !growing->readOn(last)) {
                before = 0;
                growing = std::make_unique<GrowingConsoleLog>(grown[i].first, m_options);
                kept[i]->growingDevice = kept[i]->seen.device;
                kept[i]->growingInode = kept[i]->seen.inode;
                if (!growing->grows() || !growing->readOn(last)) {
                    growing.reset();
                    readWhole[i] = 1;
                    return;
                }
            }
        } catch (const Error& e) {
            // Its reader cannot go on past the line it refused: read whole at its next change.
            growing.reset();
            if (last) readWhole[i] = 1;
            else errors[i] = e.what();
            return;
        }
        bytes[i] = growing->bytesRead() - before;
        try {
            ConsoleLogSnapshot snapshot = growing->snapshot();
            read[i] = ShardedFile{grown[i].second, std::move(snapshot.report), std::move(snapshot.events)};
            read[i]->report.written = fileWriteTime(grown[i].first);
        } catch (const Error& e) {
            if (last) readWhole[i] = 1;
            else errors[i] = e.what();
        }
    });
    for (std::size_t i = 0; i < grown.size(); ++i) {
        Kept& k = *kept[i];
        if (readWhole[i]) {
            whole.push_back(listed[grown[i].second]);
            whole.back().size = k.seen.size;
            wholeOrders.push_back(grown[i].second);
        } else if (read[i]) {
            k.file = std::move(read[i]);
            k.mark = k.seen;
            k.looksWaited = 0;
            k.tailRead = false;
            k.unreadable.reset();
            ++look.filesRead;
            look.bytesRead += bytes[i];
        } else {
            k.unreadable = errors[i];
            look.waiting.push_back(grown[i].first + ": cannot be read yet (" + errors[i].substr(0, 200) + "); read again when it changes");
        }
    }
}

void FolderFollower::write(const ImportResult& result, bool last) {
    const std::vector<RankStep>& steps = result.run.rankSteps;
    std::size_t kept = 0;
    const std::size_t common = std::min(steps.size(), m_writtenRankSteps.size());
    auto same = [](const RankStep& a, const RankStep& b) { return a.rank == b.rank && a.step == b.step && a.time == b.time && a.duration == b.duration; };
    while (kept < common && same(steps[kept], m_writtenRankSteps[kept])) ++kept;
    bool updated = false;
    // Rows are kept where most of the file's are: a job whose ranks log to one file (srun's
    // stdout) grows at the end of them; one log per rank grows after each rank's, and is
    // written whole, which is then the cheaper.
    if (m_everWritten && kept > 0 && kept >= m_writtenRankSteps.size() / 2 && !last && markOf(m_output) == m_written) {
        try {
            updateRunFileWithFigures(result.run, m_output, kept, result.pulls, &result.stragglers);
            updated = true;
        } catch (const Error&) {
            // Replaced or damaged since the last look, or of another version: written whole.
        }
    }
    m_writtenRankSteps.clear();
    if (!updated) writeRunFileWithFigures(result.run, m_output, result.pulls, &result.stragglers);
    m_written = markOf(m_output);
}

void FolderFollower::readWhole(const std::vector<ListedFile>& toRead, const std::vector<std::size_t>& orders, std::map<std::string, Kept>& now, bool last,
                               Look& look) {
    // Read together (on every core); when one of them cannot be read yet, each alone, so that
    // the others are not held back by it.
    std::vector<std::optional<ShardedFile>> read(toRead.size());
    std::vector<std::string> errors(toRead.size());
    try {
        std::vector<ShardedFile> all = readListedFiles(toRead, orders, m_options);
        for (std::size_t i = 0; i < all.size(); ++i) read[i] = std::move(all[i]);
    } catch (const Error&) {
        if (last) throw;
        for (std::size_t i = 0; i < toRead.size(); ++i) try {
                read[i] = std::move(readListedFiles({toRead[i]}, {orders[i]}, m_options).front());
            } catch (const Error& e) {
                errors[i] = e.what();
            }
    }
    for (std::size_t i = 0; i < toRead.size(); ++i) {
        Kept& kept = now[toRead[i].path];
        if (read[i]) {
            kept.file = std::move(read[i]);
            kept.tailRead = kept.mark == kept.seen && kept.growing;  // the unended line that waited
            kept.mark = kept.seen;
            kept.looksWaited = 0;
            kept.unreadable.reset();
            ++look.filesRead;
            look.bytesRead += toRead[i].size;
        } else {
            kept.unreadable = errors[i];
            look.waiting.push_back(toRead[i].path + ": cannot be read yet (" + errors[i].substr(0, 200) + "); read again when it changes");
        }
    }
}

bool FolderFollower::readsOn(const Kept& kept, const ListedFile& file) const {
    if (kept.growing) return true;
    if (kept.file) return kept.file->report.format == "training-log";
    try {
        return formatOfListedFile(file, m_options) == "training-log";
    } catch (const Error&) {
        return false;  // read whole, which says why
    }
}

FolderFollower::Mark FolderFollower::markOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace faultline
