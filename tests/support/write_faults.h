#pragma once
// Writes that fail, as on a full disk, for the tests of every writer:
//  - FileSizeLimit: an injected failure anywhere, no privilege needed. RLIMIT_FSIZE makes the
//    kernel refuse every write past a size (EFBIG, "file too large"; SIGXFSZ ignored), in
//    this process and in the commands it starts, whatever library does the writing (Qt,
//    SQLite, libav).
//  - FullDisk: a real full disk, a small tmpfs mounted on a scratch folder and filled; only
//    where the test runs as root and may mount one (available() says; the test skips else).
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

namespace faultline::test {

class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &m_saved);
        m_savedHandler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_savedHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_saved{};
    void (*m_savedHandler)(int) = SIG_DFL;
};

// A shell prefix that runs a command with writes past `kilobytes` refused (ulimit -f counts
// blocks of 1 KB in bash, 512 bytes in dash: either way a few KB), SIGXFSZ ignored.
inline std::string fileSizeLimitPrefix(int blocks = 8) {
    return "trap \"\" XFSZ; ulimit -f " + std::to_string(blocks) + "; exec ";  // fits inside sh -c '...'
}

class FullDisk {
public:
    // A tmpfs of `bytes` at `mountPoint` (made), not yet filled.
    FullDisk(const std::filesystem::path& mountPoint, std::size_t bytes) : m_path(mountPoint) {
        std::filesystem::create_directories(m_path);
        if (::geteuid() != 0) return;
        const std::string options = "size=" + std::to_string(bytes);
        m_mounted = ::mount("tmpfs", m_path.c_str(), "tmpfs", 0, options.c_str()) == 0;
    }
    ~FullDisk() {
        if (m_mounted) ::umount2(m_path.c_str(), MNT_DETACH);
    }
    FullDisk(const FullDisk&) = delete;
    FullDisk& operator=(const FullDisk&) = delete;

    bool available() const { return m_mounted; }
    std::string file(const std::string& name) const { return (m_path / name).string(); }
    // Fills the disk with a filler file until no byte more fits, then frees `leaveBytes` of it.
    void fill(std::size_t leaveBytes = 0) {
        const std::string filler = file("filler");
        {
            std::ofstream out(filler, std::ios::binary);
            const std::string block(4096, 'x');
            while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) {
            }
        }
        const auto size = std::filesystem::file_size(filler);
        std::filesystem::resize_file(filler, size > leaveBytes ? size - leaveBytes : 0);
    }

private:
    std::filesystem::path m_path;
    bool m_mounted = false;
};

}  // namespace faultline::test
