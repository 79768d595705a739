#pragma once
// The rank lists of pg_config, kept once for all the dumps of a job (FlightRecorderGroupLists),
// and the text form PyTorch writes them in ("[0, 1, 2]").
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace faultline {

// pg_config lists every group's ranks in every dump: a job of 16,384 ranks writes the
// default group's 16,384 ranks into each of its 16,384 dumps. Each distinct list is parsed
// and kept once.
class FlightRecorderGroupLists {
public:
    std::shared_ptr<const std::vector<std::int32_t>> find(std::string_view text) {
        std::lock_guard lock(m_mutex);
        auto it = m_lists.find(text);
        return it == m_lists.end() ? nullptr : it->second;
    }
    std::shared_ptr<const std::vector<std::int32_t>> keep(std::string_view text, std::vector<std::int32_t> ranks) {
        auto list = std::make_shared<const std::vector<std::int32_t>>(std::move(ranks));
        std::lock_guard lock(m_mutex);
        return m_lists.try_emplace(std::string(text), list).first->second;
    }

private:
    // The default group's list is 90 KB of text in each of 16,384 dumps: a long one is hashed
    // by its length and bytes taken across it (equal hashes are still compared whole).
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            constexpr std::size_t kSample = 256;
            if (s.size() <= kSample) return std::hash<std::string_view>{}(s);
            char sample[kSample];
            for (std::size_t k = 0; k < kSample; ++k) sample[k] = s[k * (s.size() - 1) / (kSample - 1)];
            return std::hash<std::string_view>{}(std::string_view(sample, kSample)) ^ s.size();
        }
    };
    std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const std::vector<std::int32_t>>, Hash, std::equal_to<>> m_lists;
};

// The numbers of "[0, 1, 2]" in order (anything else between them is skipped). Throws Error
// ("PATH: pg_config \"GROUP\" lists rank N, not a rank") for a number that is not a rank.
std::vector<std::int32_t> flightRecorderRanksFromText(std::string_view text, const std::string& path, const std::string& group);

}  // namespace faultline
