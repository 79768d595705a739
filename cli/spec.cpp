#include "cli/spec.h"

#include <algorithm>
#include <sstream>

namespace faultline::cli {

namespace {

constexpr std::size_t kOptionColumn = 30;
constexpr std::size_t kLineWidth = 100;

std::string optionLabel(const OptionSpec& o) {
    std::string label = o.shortName.empty() ? "    " : o.shortName + ", ";
    label += o.name;
    if (!o.value.empty()) label += " " + o.value;
    return label;
}

// Words of `text` wrapped to the line width, every line after the first indented by `indent`.
std::string wrap(const std::string& text, std::size_t indent, std::size_t firstColumn) {
    std::istringstream words(text);
    std::string word, out;
    std::size_t column = firstColumn;
    bool first = true;
    while (words >> word) {
        if (!first && column + 1 + word.size() > kLineWidth) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
        } else if (!first) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        first = false;
    }
    return out;
}

}  // namespace

std::string usageLine(const CommandSpec& spec) { return "usage: faultline-cli " + spec.name + " " + spec.synopsis + "\n"; }

std::string helpText(const CommandSpec& spec) {
    std::string out = usageLine(spec) + "\n";
    std::istringstream paragraphs(spec.description);  // one paragraph a line
    for (std::string paragraph; std::getline(paragraphs, paragraph);) out += wrap(paragraph, 0, 0) + "\n";
    out += "\noptions:\n";
    std::vector<OptionSpec> options = spec.options;
    options.push_back({"--help", "-h", "", "show this help and exit"});
    for (const OptionSpec& o : options) {
        std::string label = "  " + optionLabel(o);
        if (label.size() + 2 > kOptionColumn) {
            out += label + "\n" + std::string(kOptionColumn, ' ');
        } else {
            out += label + std::string(kOptionColumn - label.size(), ' ');
        }
        out += wrap(o.help, kOptionColumn, kOptionColumn) + "\n";
    }
    return out + "\n" + kExitStatusText;
}

}  // namespace faultline::cli
