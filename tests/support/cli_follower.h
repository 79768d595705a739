#pragma once
// `faultline-cli import --follow ...` run as a user runs it, in the background: its output in
// a file, ended with SIGTERM as Ctrl+C would (SIGKILL if the test ends first). And a wait on a
// condition with a generous deadline, never a fixed sleep.
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline::test {

class CliFollower {
public:
    // Starts FAULTLINE_CLI with `args`, its standard output and error written to `out`.
    CliFollower(const std::vector<std::string>& args, const std::string& out) {
        m_pid = ::fork();
        if (m_pid == 0) {
            const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            std::vector<char*> argv{const_cast<char*>(FAULTLINE_CLI)};
            for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(FAULTLINE_CLI, argv.data());
            ::_exit(127);
        }
    }
    CliFollower(const CliFollower&) = delete;
    CliFollower& operator=(const CliFollower&) = delete;
    ~CliFollower() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    // SIGTERM, then its exit code (128 + the signal where a signal ended it).
    int stop() {
        ::kill(m_pid, SIGTERM);
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        m_pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    pid_t m_pid = -1;
};

// Waits for `done`, looking again and again: a generous deadline, never a fixed sleep.
template <typename Done>
bool waitFor(Done done, std::chrono::seconds patience = std::chrono::seconds(120)) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

}  // namespace faultline::test
