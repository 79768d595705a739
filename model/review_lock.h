#pragma once
// One writer of a review at a time. Every change to a review (a note typed, a viewpoint saved,
// the review saved into the run file) reads the review as it is on disk, changes it and writes
// it back while holding this lock, so two windows, two reviewers on a shared folder, the CLI
// and the app take turns and none writes over what another has just saved.
//
// flock(2) on REVIEW.lock beside the review: flock locks exclude each other between threads of
// one process too (fcntl's do not), and hold over NFS. The lock file is removed by its holder on
// release; a writer that waited on a file removed meanwhile takes the new one instead.
#include <string>

namespace faultline {

class ReviewLock {
public:
    // Waits until the lock of `reviewPath` is free and takes it; throws Error naming the lock
    // file when it cannot be made (its folder is made first, as the review's would be).
    explicit ReviewLock(const std::string& reviewPath);
    ~ReviewLock();
    ReviewLock(const ReviewLock&) = delete;
    ReviewLock& operator=(const ReviewLock&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    int m_fd = -1;
};

}  // namespace faultline
