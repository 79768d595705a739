#include "review_editing_mark.h"

#include "process_gone.h"
#include "error.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace faultline {

namespace {

constexpr const char* kInfix = ".editing-";

std::string hostName() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return {};
    return name;
}


// Several windows of one process may edit one review: each mark has its own number.
std::string markPath(const std::string& reviewPath) {
    static std::atomic<int> next{0};
    return reviewPath + kInfix + std::to_string(::getpid()) + "-" + std::to_string(next++);
}

}  // namespace

ReviewEditingMark::ReviewEditingMark(std::string reviewPath) : m_path(markPath(reviewPath)) {}

ReviewEditingMark::~ReviewEditingMark() {
    if (m_edited.empty()) return;
    std::error_code ec;
    std::filesystem::remove(m_path, ec);
}

void ReviewEditingMark::noteEdited(Nanos incidentBegin) {
    if (!m_edited.insert(incidentBegin).second) return;
    // Written whole under another name and renamed, so a reader never sees half a list.
    const std::string partial = m_path + ".partial";
    {
        std::ofstream out(partial, std::ios::trunc);
        out << hostName() << '\n';
        for (Nanos begin : m_edited) out << begin << '\n';
        out.close();
        if (!out) {
            m_edited.erase(incidentBegin);
            throw Error("cannot write " + m_path);
        }
    }
    std::error_code ec;
    std::filesystem::rename(partial, m_path, ec);
    if (ec) {
        m_edited.erase(incidentBegin);
        throw Error("cannot write " + m_path + ": " + ec.message());
    }
}

std::set<Nanos> takeEditsOfEndedWindows(const std::string& reviewPath) {
    const std::filesystem::path review(reviewPath);
    const std::string prefix = review.filename().string() + kInfix;
    std::set<Nanos> edited;
    std::error_code ec;
    const std::string here = hostName();
    for (const auto& entry : std::filesystem::directory_iterator(review.parent_path().empty() ? "." : review.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || name.ends_with(".partial")) continue;
        long pid = 0;
        try {
            pid = std::stol(name.substr(prefix.size()));
        } catch (const std::exception&) {
            continue;  // not a mark of ours
        }
        std::ifstream in(entry.path());
        std::string host;
        if (!std::getline(in, host) || host != here || !processIsGone(pid)) continue;
        for (std::string line; std::getline(in, line);) {
            try {
                edited.insert(std::stoll(line));
            } catch (const std::exception&) {
                // A line cut by the power going: the notes are in the review all the same.
            }
        }
        std::error_code removeEc;
        std::filesystem::remove(entry.path(), removeEc);
    }
    return edited;
}

}  // namespace faultline
