#include "importers/console/job_banner.h"

#include "importers/text/text_parse.h"

#include <array>
#include <cctype>

namespace faultline {

namespace {

constexpr std::array<std::string_view, 9> kVariables = {
    "SLURM_JOB_ID", "SLURM_JOB_NAME", "SLURM_RESTART_COUNT", "SLURM_JOB_NODELIST", "SLURM_NODELIST",
    "SLURM_NNODES", "SLURM_NTASKS",   "SLURM_GPUS_ON_NODE",  "WORLD_SIZE"};

// The number after `key` (and optional spaces and a colon), or nullopt.
std::optional<std::int32_t> countAfter(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == ':' || line[i] == '=')) ++i;
    std::size_t j = i;
    while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
    const auto n = parseInt(line.substr(i, j - i));
    if (!n || *n <= 0 || *n > 100'000'000) return std::nullopt;
    return static_cast<std::int32_t>(*n);
}

}  // namespace

std::optional<SlurmVariable> parseSlurmVariable(std::string_view line) {
    line = trim(line);
    // `set -x` traces start with '+'s; `export` and `declare -x` precede the name.
    while (!line.empty() && line.front() == '+') line.remove_prefix(1);
    line = trim(line);
    for (std::string_view prefix : {std::string_view("export "), std::string_view("declare -x ")})
        if (startsWith(line, prefix)) line = trim(line.substr(prefix.size()));
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    const std::string_view name = line.substr(0, eq);
    bool known = false;
    for (std::string_view v : kVariables) known = known || name == v;
    if (!known) return std::nullopt;
    std::string_view value = trim(line.substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') && value.back() == value.front())
        value = value.substr(1, value.size() - 2);
    if (value.empty() || value.find(' ') != std::string_view::npos) return std::nullopt;
    return SlurmVariable{name, value};
}

std::optional<ParallelSizes> parseParallelSizes(std::string_view line) {
    if (!contains(line, "using world size")) return std::nullopt;
    ParallelSizes p;
    p.world = countAfter(line, "using world size").value_or(0);
    if (p.world == 0) return std::nullopt;
    p.data = countAfter(line, "data-parallel-size").value_or(countAfter(line, "data-parallel size").value_or(0));
    p.tensor = countAfter(line, "tensor-model-parallel size").value_or(0);
    p.pipeline = countAfter(line, "pipeline-model-parallel size").value_or(0);
    return p;
}

std::optional<TorchrunShape> parseTorchrunShape(std::string_view line) {
    const std::string_view t = trim(line);
    auto numberAfter = [&](std::size_t from) -> std::int32_t {
        std::size_t i = from;
        while (i < t.size() && (t[i] == ' ' || t[i] == ':' || t[i] == '=' || t[i] == '[')) ++i;
        std::size_t j = i;
        while (j < t.size() && t[j] >= '0' && t[j] <= '9') ++j;
        return j > i ? static_cast<std::int32_t>(parseInt(t.substr(i, j - i)).value_or(0)) : 0;
    };
    TorchrunShape out;
    if (startsWith(t, "nproc_per_node ") || startsWith(t, "nproc_per_node:")) out.procsPerNode = numberAfter(14);
    else if (startsWith(t, "global_world_sizes=[")) out.worldSize = numberAfter(19);
    // The launcher's own command line, as the job script ran it (often echoed by `set -x`):
    // "python -m torch.distributed.launch --nproc_per_node 4 --nnodes 8", "torchrun --nproc-per-node=8".
    else if (const auto n = countAfter(t, "--nproc_per_node")) out.procsPerNode = *n;
    else if (const auto m = countAfter(t, "--nproc-per-node")) out.procsPerNode = *m;
    if (out.procsPerNode <= 0 && out.worldSize <= 0) return std::nullopt;
    return out;
}

}  // namespace faultline
