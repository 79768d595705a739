#include "cli/args.h"

#include "model/format.h"
#include "model/output_guard.h"

#include <charconv>

namespace faultline::cli {

Args::Args(const std::vector<std::string>& args, const CommandSpec& spec) {
    std::map<std::string, const OptionSpec*> options;
    for (const OptionSpec& o : spec.options) {
        options[o.name] = &o;
        if (!o.shortName.empty()) options[o.shortName] = &o;
    }
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "--" && !optionsEnded) {  // what follows is files, even "-o" or "--x"
            optionsEnded = true;
            continue;
        }
        if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
            m_positional.push_back(arg);
            continue;
        }
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg.resize(eq);
        }
        auto found = options.find(arg);
        if (found == options.end()) throw UsageError("unknown option " + arg);
        const OptionSpec& option = *found->second;
        if (!option.value.empty()) {
            if (!inlineValue && i + 1 >= args.size()) throw UsageError("option " + arg + " needs a value: " + arg + " " + option.value);
            m_values[option.name] = inlineValue ? *inlineValue : args[++i];
        } else if (!inlineValue) {
            m_flags.insert(option.name);
        } else {
            throw UsageError("option " + arg + " takes no value");
        }
    }
}

std::string Args::output(const std::string& name, OutputKind kind, const std::vector<std::string>& inputs) const {
    const auto path = value(name);
    if (!path) throw UsageError("option " + name + " is required");
    checkOutput(*path, kind, inputs, flag("--force"));
    return *path;
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
        throw UsageError("option " + name + " expects a whole number, not \"" + *text + "\"");
    return out;
}

std::optional<double> Args::number(const std::string& name) const {
    auto text = value(name);
    if (!text) return std::nullopt;
    double out = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), out);
    if (ec != std::errc() || end != text->data() + text->size())
        throw UsageError("option " + name + " expects a number, not \"" + *text + "\"");
    return out;
}

std::optional<std::int64_t> Args::duration(const std::string& name, bool allowZero) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    const auto d = parseDuration(*text);
    if (!d || *d < 0 || (*d == 0 && !allowZero))
        throw UsageError("option " + name + " expects a duration such as 10m, 90s or 1h30m, not \"" + *text + "\"");
    return *d;
}

}  // namespace faultline::cli
