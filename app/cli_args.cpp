#include "cli_args.h"

#include "model/error.h"

#include <charconv>

namespace faultline::cli {

Args::Args(const std::vector<std::string>& args, const std::set<std::string>& valueOptions,
           const std::set<std::string>& flags) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg[0] != '-') {
            m_positional.push_back(arg);
            continue;
        }
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg.resize(eq);
        }
        if (valueOptions.count(arg)) {
            if (!inlineValue && i + 1 >= args.size()) throw Error("option " + arg + " needs a value");
            m_values[arg] = inlineValue ? *inlineValue : args[++i];
        } else if (flags.count(arg) && !inlineValue) {
            m_flags.insert(arg);
        } else {
            throw Error("unknown option " + arg);
        }
    }
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = m_values.find(name);
    if (it == m_values.end()) return std::nullopt;
    return it->second;
}

std::optional<long long> Args::integer(const std::string& name) const {
    auto text = value(name);
    if (!text) return std::nullopt;
    long long out = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), out);
    if (ec != std::errc() || end != text->data() + text->size())
        throw Error("option " + name + " expects a whole number, not \"" + *text + "\"");
    return out;
}

std::optional<double> Args::number(const std::string& name) const {
    auto text = value(name);
    if (!text) return std::nullopt;
    double out = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), out);
    if (ec != std::errc() || end != text->data() + text->size())
        throw Error("option " + name + " expects a number, not \"" + *text + "\"");
    return out;
}

}  // namespace faultline::cli
