#include "importers/text/hostlist.h"

#include "model/error.h"
#include "importers/text/text_parse.h"

namespace faultline {

namespace {

// The largest clusters have a few tens of thousands of hosts; a list naming more is a typo
// or hostile ("node[001-064]srv[0013-6208]" is 396,544 hosts), and would cost seconds.
constexpr std::size_t kMaxHosts = 100'000;

struct TooManyHosts {};

// Expands the first bracket of `pattern`, recursing for the rest.
void expandOne(std::string_view pattern, std::vector<std::string>& out) {
    const std::size_t open = pattern.find('[');
    if (open == std::string_view::npos) {
        if (pattern.find(']') != std::string_view::npos) throw Error("host list \"" + std::string(pattern) + "\" has a ']' without '['");
        out.emplace_back(pattern);
        return;
    }
    const std::size_t close = pattern.find(']', open);
    if (close == std::string_view::npos) throw Error("host list \"" + std::string(pattern) + "\" has a '[' without ']'");
    const std::string_view prefix = pattern.substr(0, open);
    const std::string_view suffix = pattern.substr(close + 1);
    std::vector<std::string_view> ranges;
    splitBy(pattern.substr(open + 1, close - open - 1), ",", ranges);
    for (std::string_view r : ranges) {
        const std::size_t dash = r.find('-');
        const std::string_view loText = dash == std::string_view::npos ? r : r.substr(0, dash);
        const std::string_view hiText = dash == std::string_view::npos ? r : r.substr(dash + 1);
        const auto lo = parseInt(loText);
        const auto hi = parseInt(hiText);
        if (!lo || !hi || *lo < 0 || *hi < *lo)
            throw Error("host list \"" + std::string(pattern) + "\": \"" + std::string(r) + "\" is not a number or a range a-b");
        if (static_cast<std::size_t>(*hi - *lo) > kMaxHosts) throw TooManyHosts{};
        const std::size_t width = loText.size();
        for (std::int64_t k = 0; k <= *hi - *lo; ++k) {  // counted, so a range ending at the int64 limit ends
            std::string num = std::to_string(*lo + k);
            if (num.size() < width) num.insert(0, width - num.size(), '0');
            expandOne(std::string(prefix) + num + std::string(suffix), out);
            if (out.size() > kMaxHosts) throw TooManyHosts{};
        }
    }
}

}  // namespace

std::vector<std::string> expandHostList(std::string_view list) {
    std::vector<std::string> out;
    // Split on commas outside brackets.
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= list.size(); ++i) {
        if (i == list.size() || (list[i] == ',' && depth == 0)) {
            const std::string_view item = trim(list.substr(start, i - start));
            try {
                if (!item.empty() && item != "None assigned") expandOne(item, out);
            } catch (const TooManyHosts&) {
                throw Error("host list \"" + std::string(list) + "\" names more than 100,000 hosts");
            }
            start = i + 1;
        } else if (list[i] == '[') {
            ++depth;
        } else if (list[i] == ']') {
            --depth;
        }
    }
    return out;
}

bool naturalLess(std::string_view a, std::string_view b) {
    std::size_t i = 0, j = 0;
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && isDigit(a[ie])) ++ie;
            while (je < b.size() && isDigit(b[je])) ++je;
            std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
            while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
            while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
            if (na.size() != nb.size()) return na.size() < nb.size();
            if (na != nb) return na < nb;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

}  // namespace faultline
