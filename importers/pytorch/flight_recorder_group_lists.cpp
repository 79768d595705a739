#include "importers/pytorch/flight_recorder_group_lists.h"

#include "model/error.h"

#include <algorithm>

namespace faultline {

std::vector<std::int32_t> flightRecorderRanksFromText(std::string_view text, const std::string& path, const std::string& group) {
    std::vector<std::int32_t> out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] < '0' || text[i] > '9') {
            ++i;
            continue;
        }
        std::int64_t r = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) r = std::min<std::int64_t>(r * 10 + (text[i] - '0'), std::int64_t{1} << 40);
        if (r > INT32_MAX) throw Error(path + ": pg_config \"" + group + "\" lists rank " + std::to_string(r) + ", not a rank");
        out.push_back(static_cast<std::int32_t>(r));
    }
    return out;
}

}  // namespace faultline
