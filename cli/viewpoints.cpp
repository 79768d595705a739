#include "cli/args.h"
#include "cli/commands.h"

#include "model/review_file.h"
#include "model/run_file.h"
#include "model/viewpoints.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline::cli {

namespace {

std::string point(const std::array<double, 3>& p) {
    char text[96];
    std::snprintf(text, sizeof text, "(%.1f, %.1f, %.1f)", p[0], p[1], p[2]);
    return text;
}

}  // namespace

const CommandSpec& viewpointsSpec() {
    static const CommandSpec spec{
        "viewpoints",
        "RUN.faultline [--json]",
        "list the 3D view's cameras saved in a run's review",
        "Lists the viewpoints saved in the run's review (View > Viewpoints in the app), in their order: the number "
        "(Ctrl+N flies to it in the app), the name, and where the camera looks from and at, or why it does not fit the "
        "run's cluster. `faultline --screenshot OUT.png --viewpoint NAME RUN` and `faultline --record` render from one.",
        {{"--json", "", "", "print the viewpoints as JSON"}}};
    return spec;
}

int viewpointsCommand(const CommandArgs& argv) {
    const Args args(argv, viewpointsSpec());
    if (args.positional().size() != 1) throw UsageError("viewpoints takes one run file");
    const std::string path = args.positional().front();
    const Run run = readRunFile(path);
    const std::vector<Viewpoint> all = readViewpoints(path);
    if (args.flag("--json")) {
        nlohmann::json out = nlohmann::json::array();
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Viewpoint& v = all[i];
            const auto mismatch = viewpointMismatch(v, run.topology);
            out.push_back({{"number", i + 1},
                           {"name", v.name},
                           {"fits", !mismatch},
                           {"position", v.position},
                           {"focal_point", v.focal},
                           {"view_up", v.up},
                           {"view_angle", v.viewAngle},
                           {"saved_epoch_ns", v.savedEpochNs}});
            if (mismatch) out.back()["why_not"] = *mismatch;
        }
        std::fputs((out.dump(2) + "\n").c_str(), stdout);
        return 0;
    }
    if (all.empty()) {
        std::printf("%s has no saved viewpoints (View > Viewpoints > Save Viewpoint in the app saves one)\n", path.c_str());
        return 0;
    }
    std::printf("%zu viewpoint%s saved in the review of %s (%s):\n", all.size(), all.size() == 1 ? "" : "s", path.c_str(),
                reviewSource(path).c_str());
    std::size_t width = 0;
    for (const Viewpoint& v : all) width = std::max(width, v.name.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Viewpoint& v = all[i];
        const auto mismatch = viewpointMismatch(v, run.topology);
        const std::string where = mismatch ? "does not fit: " + *mismatch : "from " + point(v.position) + " towards " + point(v.focal);
        std::printf("  %zu  %-*s  %s\n", i + 1, static_cast<int>(width), v.name.c_str(), where.c_str());
    }
    return 0;
}

}  // namespace faultline::cli
