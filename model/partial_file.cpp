#include "partial_file.h"

#include "process_gone.h"
#include "checked_write.h"
#include "error.h"
#include "output_guard.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <unistd.h>

namespace faultline {

namespace {

// Paths of the partial files being written, for the signal handler: fixed storage, since a
// handler may not allocate. A slot is in use while its flag is set.
constexpr std::size_t kSlots = 16;
constexpr std::size_t kMaxPath = 4096;
std::array<std::atomic<bool>, kSlots> g_inUse{};
std::array<std::array<char, kMaxPath>, kSlots> g_paths{};

extern "C" void removePartialsAndDie(int sig) {
    for (std::size_t i = 0; i < kSlots; ++i)
        if (g_inUse[i].load()) ::unlink(g_paths[i].data());
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// Only where nobody else handles the signal: an application's own handler stays in charge.
void installHandlersOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction current {};
            if (::sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) std::signal(sig, removePartialsAndDie);
        }
    });
}

int claimSlot(const std::string& path) {
    if (path.size() >= kMaxPath) return -1;
    for (std::size_t i = 0; i < kSlots; ++i) {
        bool expected = false;
        if (!g_inUse[i].load() && g_inUse[i].compare_exchange_strong(expected, true)) {
            g_inUse[i].store(false);  // hidden from the handler while the path is copied in
            std::memcpy(g_paths[i].data(), path.c_str(), path.size() + 1);
            g_inUse[i].store(true);
            return static_cast<int>(i);
        }
    }
    return -1;  // more concurrent writes than slots: those files are left to the next write's cleanup
}


}  // namespace

int removeStalePartials(const std::string& target) {
    namespace fs = std::filesystem;
    const fs::path t = fs::absolute(target);
    const std::string prefix = t.filename().string() + ".partial-";
    std::error_code ec;
    int removed = 0;
    for (fs::directory_iterator it(t.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        const std::string pidText = name.substr(prefix.size());
        if (pidText.empty() || pidText.find_first_not_of("0123456789") != std::string::npos || pidText.size() > 9) continue;
        if (!processIsGone(std::stol(pidText))) continue;
        std::error_code ignored;
        if (fs::remove(it->path(), ignored)) ++removed;
    }
    return removed;
}

PartialFile::PartialFile(std::string target) : m_target(std::move(target)) {
    m_path = m_target + ".partial-" + std::to_string(::getpid());
    removeStalePartials(m_target);
    std::error_code ignored;
    std::filesystem::remove(m_path, ignored);
    installHandlersOnce();
    m_slot = claimSlot(m_path);
}

PartialFile::~PartialFile() {
    if (!m_committed) {
        std::error_code ignored;
        std::filesystem::remove(m_path, ignored);
    }
    if (m_slot >= 0) g_inUse[static_cast<std::size_t>(m_slot)].store(false);
}

void PartialFile::commit() {
    // SQLite with synchronous=OFF does not flush; the file must be on disk before the rename
    // makes it visible under its real name.
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot reopen the new " + m_target + " to flush it to disk: " + errnoText(errno));
    const int rc = ::fsync(fd);
    const int fsyncError = errno;
    ::close(fd);
    if (rc != 0) throw Error("cannot flush " + m_target + " to disk: " + errnoText(fsyncError));
    std::error_code ec;
    std::filesystem::rename(m_path, m_target, ec);
    if (ec) throw Error("cannot write " + m_target + ": " + errnoText(ec.value()));
    m_committed = true;
}

void writeThroughPartial(const std::string& target, const std::function<void(const std::string&)>& write) {
    const std::filesystem::path folder = std::filesystem::absolute(target).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) throw Error("cannot write " + target + ": there is no folder " + folder.string());
    // The last guard before a rename: whatever a caller checked, a FIFO, a device, a folder,
    // a link to one of those or anything under /dev and /proc is never replaced.
    if (isSystemPath(target)) throw Error("cannot write " + target + ": it is a device or a file of the system");
    const auto status = std::filesystem::symlink_status(target, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) && !std::filesystem::is_symlink(status))
        throw Error("cannot write " + target + ": it is not a regular file");
    if (!ec && std::filesystem::is_symlink(status)) {
        std::error_code linkEc;
        const auto pointed = std::filesystem::status(target, linkEc);
        if (!linkEc && std::filesystem::exists(pointed) && !std::filesystem::is_regular_file(pointed))
            throw Error("cannot write " + target + ": it is a link to something that is not a regular file");
    }
    PartialFile partial(target);
    try {
        write(partial.path());
        partial.commit();
    } catch (const Error& e) {
        std::string message = e.what();
        for (std::size_t at; (at = message.find(partial.path())) != std::string::npos;) message.replace(at, partial.path().size(), target);
        throw Error(message);
    }
}

}  // namespace faultline
