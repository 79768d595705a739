#pragma once
// The arguments of one faultline-cli command: "--name value", "--name=value", "-o value",
// flags, and positional arguments ("--" ends the options), as its CommandSpec declares them. Unknown options and
// malformed values are UsageErrors, named in the message.
#include "cli/spec.h"
#include "model/output_guard.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace faultline::cli {

class Args {
public:
    // The options `spec` lists; a short name ("-o") is read as its long one ("--output").
    Args(const std::vector<std::string>& args, const CommandSpec& spec);

    std::optional<std::string> value(const std::string& name) const;
    bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    const std::vector<std::string>& positional() const { return m_positional; }
    // The file option `name` names, checked as an output of `kind` for a command reading
    // `inputs` (model/output_guard.h; --force where the command has it). Throws Error.
    std::string output(const std::string& name, OutputKind kind, const std::vector<std::string>& inputs) const;

    // Typed readers: throw UsageError naming the option and what it expected.
    std::optional<long long> integer(const std::string& name) const;
    std::optional<double> number(const std::string& name) const;
    // "10m", "90s", "1h": positive, or also zero where `allowZero` (a step that takes no time).
    std::optional<std::int64_t> duration(const std::string& name, bool allowZero = false) const;

private:
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::vector<std::string> m_positional;
};

}  // namespace faultline::cli
