#pragma once
// Work on many files at once, one per core: each worker takes the next file in turn. The run
// behaves as a sequential one would: the first failure in file order is the one thrown, and
// files after it are not started.
#include <atomic>
#include <cstddef>
#include <functional>

namespace faultline {

// Calls work(i) for every i in [0, count) on `workers` threads (0: one per core); Cancel
// (when given) stops the workers taking more and throws ImportCancelled.
void forEachFileInParallel(std::size_t count, int workers, const std::function<void(std::size_t)>& work,
                           const std::atomic<bool>* cancel = nullptr);

}  // namespace faultline
