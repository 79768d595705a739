#include "importers/text/parallel_files.h"

#include "importers/events/import_context.h"

#include <exception>
#include <thread>
#include <vector>

namespace faultline {

void forEachFileInParallel(std::size_t count, int workers, const std::function<void(std::size_t)>& work, const std::atomic<bool>* cancel) {
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> firstError{count};
    auto run = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            if (i > firstError.load()) break;
            try {
                if (cancel && cancel->load()) throw ImportCancelled();
                work(i);
            } catch (...) {
                errors[i] = std::current_exception();
                for (std::size_t seen = firstError.load(); i < seen && !firstError.compare_exchange_weak(seen, i);) {}
            }
        }
    };
    const std::size_t cores = workers > 0 ? static_cast<std::size_t>(workers) : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = std::min(count, cores);
    std::vector<std::thread> pool;
    for (std::size_t w = 1; w < threads; ++w) pool.emplace_back(run);
    run();
    for (std::thread& t : pool) t.join();
    if (cancel && cancel->load()) throw ImportCancelled();
    if (firstError.load() < count) std::rethrow_exception(errors[firstError.load()]);
}

}  // namespace faultline
