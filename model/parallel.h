#pragma once
// Work spread over every core, for the Qt-free core's passes over tens of millions of
// records: work(i) for each i in [0, count), each thread taking the next i in turn. The first
// exception thrown stops the others taking more and is rethrown once all have stopped.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace faultline {

// How many threads forEachInParallel runs for `count` items.
inline std::size_t parallelWorkers(std::size_t count) {
    return std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
}

template <typename Work>
void forEachInParallel(std::size_t count, const Work& work) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto run = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                work(i);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                next = count;
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < parallelWorkers(count); ++t) pool.emplace_back(run);
    run();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

// The passes over a run's tens of millions of collectives: rows [0, rows) in blocks of a
// million, work(block, begin, end) for each block on whichever core is free. A pass keeps one
// result a block (rowBlocks(rows) of them), then combines them.
inline constexpr std::size_t kRowsPerBlock = std::size_t{1} << 20;

inline std::size_t rowBlocks(std::size_t rows) { return (rows + kRowsPerBlock - 1) / kRowsPerBlock; }

template <typename Work>
void forEachRowBlock(std::size_t rows, const Work& work) {
    forEachInParallel(rowBlocks(rows), [&](std::size_t b) { work(b, b * kRowsPerBlock, std::min(rows, (b + 1) * kRowsPerBlock)); });
}

// A stable counting sort on every core, each core counting then placing its own run of the
// items: turns each run's count of its items by key (counts[run][key]) into where that run's
// items of the key go, from `first` on, keys in order and, within a key, runs in order.
// Returns where each key's items begin, and (last) their end.
template <typename Count>
std::vector<std::size_t> placesOfRunsByKey(std::vector<std::vector<Count>>& counts, std::size_t keys, std::size_t first = 0) {
    std::vector<std::size_t> start(keys + 1);
    std::size_t at = first;
    for (std::size_t key = 0; key < keys; ++key) {
        start[key] = at;
        for (std::vector<Count>& ofRun : counts) {
            const std::size_t n = ofRun[key];
            ofRun[key] = static_cast<Count>(at);
            at += n;
        }
    }
    start[keys] = at;
    return start;
}

}  // namespace faultline
