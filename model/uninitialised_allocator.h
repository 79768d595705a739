#pragma once
// An allocator whose elements made without a value (resize(n), emplace_back()) are left as
// the memory holds them: a vector of tens of millions of plain records, each about to be
// written in its place, is grown without first zeroing gigabytes, and its pages are touched
// only as the records land.
#include <memory>
#include <type_traits>
#include <utility>

namespace faultline {

template <typename T>
struct UninitialisedAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <typename U>
    UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}

    template <typename U>
    void construct(U*) noexcept {
        // Only for plain data, whose storage holds an object as soon as it is written.
        static_assert(std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>);
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

}  // namespace faultline
