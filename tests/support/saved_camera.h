#pragma once
// A saved camera of the tiny run, as the review file keeps it; `x` tells cameras apart.
#include "test_runs.h"

#include "model/viewpoints.h"

#include <string>

namespace faultline::test {

inline Viewpoint savedCamera(const std::string& name, double x) {
    Viewpoint v;
    v.name = name;
    v.position = {x, -120.5, 80.25};
    v.focal = {x, 40, 3};
    v.up = {0, 0.6, 0.8};
    v.viewAngle = 30;
    v.topology = stampOf(tinyRun().topology);
    return v;
}

}  // namespace faultline::test
