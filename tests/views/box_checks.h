#pragma once
// Where boxes of a fabric layout stand relative to each other, for the layout tests.
#include "views/fabric/fabric_layout.h"

#include <cstddef>

namespace faultline::test {

// `inner` within `outer` on the first `axes` axes (2: on the floor plan only).
inline bool inside(const Box3& inner, const Box3& outer, std::size_t axes = 3) {
    for (std::size_t k = 0; k < axes; ++k)
        if (inner.min[k] < outer.min[k] - 1e-4f || inner.max[k] > outer.max[k] + 1e-4f) return false;
    return true;
}

inline bool overlap(const Box3& a, const Box3& b) {
    for (std::size_t k = 0; k < 3; ++k)
        if (a.max[k] <= b.min[k] || b.max[k] <= a.min[k]) return false;
    return true;
}

}  // namespace faultline::test
