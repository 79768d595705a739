#include "importers/rank_map.h"

#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"

namespace faultline {

std::vector<RankPlacement> readRankMap(const std::string& path) {
    LineReader in(path);
    std::vector<RankPlacement> out;
    std::string_view line;
    while (in.next(line)) {
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        std::vector<std::string_view> fields;
        std::string_view rest = line;
        while (!rest.empty()) {
            const std::size_t sep = rest.find_first_of(" \t,");
            if (sep != 0) fields.push_back(rest.substr(0, sep));
            if (sep == std::string_view::npos) break;
            rest.remove_prefix(sep + 1);
        }
        const auto rank = parseInt(fields[0]);
        if (!rank) {
            if (out.empty() && in.lineNumber() == 1) continue;  // a header
            in.fail("expected RANK HOST [LOCAL_GPU], found \"" + std::string(line) + "\"");
        }
        if (*rank < 0 || *rank > 10'000'000 || fields.size() < 2) in.fail("expected RANK HOST [LOCAL_GPU] with a rank from 0");
        RankPlacement p;
        p.rank = static_cast<std::int32_t>(*rank);
        p.host = std::string(fields[1]);
        if (fields.size() > 2) {
            const auto local = parseInt(fields[2]);
            if (!local || *local < 0 || *local >= kMaxGpusPerNode)
                in.fail("LOCAL_GPU must be a GPU index from 0 to " + std::to_string(kMaxGpusPerNode - 1) + ", found \"" + std::string(fields[2]) + "\"");
            p.localGpu = static_cast<std::int32_t>(*local);
        }
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace faultline
