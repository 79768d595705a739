// Flight Recorder at scale: writes one dump per rank for a job of --ranks ranks, each holding
// --entries entries, with the structure of the real dumps (NVIDIA Resiliency Extension's
// 16-rank Megatron MoE job): the same keys, process group descriptions, op names, tensor
// sizes and dtypes, with the groups scaled up (tensor parallel 8, pipeline 8, data parallel
// the rest, the default group spanning every rank and listed in full in every dump, as
// PyTorch writes it). One rank stops early (the culprit); the others are left waiting in the
// collectives it never joined. Then it times, each in a child process of its own so that the
// peak memory is that step's alone:
//   import  importToRunFile(folder) -> run file
//   hang    analyzeHang(readFlightRecorderDumps(folder))
// and prints seconds, CPU seconds and peak resident memory (getrusage of the child).
//
//   faultline_bench_flight_recorder [--ranks N] [--entries N] [--form pickle|json] [--dir DIR] [--keep] [--only import|hang]
//     --ranks    ranks (default 1024); --entries entries per dump (default 1000)
//     --form     write PyTorch's pickle (default) or the JSON variant
//     --dir      write the dumps here (default a temporary folder); existing dumps of the
//                same shape there are reused, so a second run times the reading alone
//     --keep     leave the dumps behind
#include "analysis/hang_analysis.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/importer.h"
#include "importers/pytorch/pickle_reader.h"
#include "importers/text/read_whole_file.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifndef FAULTLINE_REALDATA
#define FAULTLINE_REALDATA ""
#endif

namespace {

namespace fs = std::filesystem;

// A protocol-4 pickle as CPython's pickler writes it: strings memoised on first use and
// referred to by BINGET afterwards, dicts filled by SETITEMS in batches, ints in the
// narrowest opcode.
class PickleWriter {
public:
    PickleWriter() { m_out += "\x80\x04"; }
    void str(const std::string& s) {
        if (auto it = m_memo.find(s); it != m_memo.end()) return get(it->second);
        if (s.size() < 256) {
            m_out += '\x8c';
            m_out += static_cast<char>(s.size());
        } else {
            m_out += 'X';
            le(s.size(), 4);
        }
        m_out += s;
        memoize();
        m_memo.emplace(s, m_next - 1);
    }
    void integer(std::int64_t v) {
        if (v >= 0 && v < 256) {
            m_out += 'K';
            le(static_cast<std::uint64_t>(v), 1);
        } else if (v >= 0 && v < 65536) {
            m_out += 'M';
            le(static_cast<std::uint64_t>(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            m_out += 'J';
            le(static_cast<std::uint64_t>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v))), 4);
        } else {
            m_out += '\x8a';
            m_out += '\x08';
            le(static_cast<std::uint64_t>(v), 8);
        }
    }
    void none() { m_out += 'N'; }
    void boolean(bool b) { m_out += b ? '\x88' : '\x89'; }
    void beginDict() {
        m_out += '}';
        memoize();
    }
    void beginList() {
        m_out += ']';
        memoize();
    }
    void mark() { m_out += '('; }
    void setItems() { m_out += 'u'; }
    void appends() { m_out += 'e'; }
    void tuple2() {
        m_out += '\x86';
        memoize();
    }
    std::string finish() {
        m_out += '.';
        return std::move(m_out);
    }

private:
    void memoize() {
        m_out += '\x94';
        ++m_next;
    }
    void get(std::uint64_t i) {
        if (i < 256) {
            m_out += 'h';
            le(i, 1);
        } else {
            m_out += 'j';
            le(i, 4);
        }
    }
    void le(std::uint64_t v, int n) {
        for (int k = 0; k < n; ++k) m_out += static_cast<char>((v >> (8 * k)) & 0xff);
    }
    std::string m_out;
    std::map<std::string, std::uint64_t> m_memo;
    std::uint64_t m_next = 0;
};

struct Group {
    std::string name, desc;
    std::vector<std::int32_t> ranks;
};

struct Template {
    std::string op, desc, dtype;
    std::vector<std::vector<std::int64_t>> in, out;
    bool p2p = false;
};

// Op names, sizes and dtypes of a real dump's entries, with the description of each entry's
// group: the schedule every generated rank repeats.
std::vector<Template> realTemplates() {
    const std::string dump = std::string(FAULTLINE_REALDATA) + "/flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st/_dump_3";
    std::vector<Template> out;
    if (fs::exists(dump)) {
        const nlohmann::json d = faultline::readPickle(faultline::readWholeFile(dump), dump);
        for (const nlohmann::json& e : d["entries"]) {
            const std::string dtype = e["input_dtypes"].empty() ? "BFloat16" : e["input_dtypes"][0].get<std::string>();
            out.push_back({e["profiling_name"], e["process_group"][1], dtype, e["input_sizes"], e["output_sizes"], e["is_p2p"]});
        }
    }
    if (out.empty()) {
        std::fprintf(stderr, "real dumps not found (%s); using a built-in schedule\n", dump.c_str());
        out = {{"nccl:_all_gather_base", "TENSOR_MODEL_PARALLEL_GROUP", "BFloat16", {{4096, 1, 5120}}, {{8192, 1, 5120}}, false},
               {"nccl:_reduce_scatter_base", "TENSOR_MODEL_PARALLEL_GROUP", "BFloat16", {{8192, 1, 5120}}, {{4096, 1, 5120}}, false},
               {"nccl:all_to_all", "EXPERT_MODEL_PARALLEL_GROUP", "BFloat16", {{4096, 5120}}, {{4096, 5120}}, false},
               {"nccl:send 0->1", "PIPELINE_MODEL_PARALLEL_GROUP", "BFloat16", {{4096, 1, 5120}}, {{4096, 1, 5120}}, true},
               {"nccl:all_reduce", "DATA_PARALLEL_GROUP_WITH_CP", "Float", {{1}}, {{1}}, false}};
    }
    return out;
}

// The groups of rank r: the default group, tensor parallel (8 neighbours), expert parallel
// (the same 8), pipeline (8 stages, world/8 apart), data parallel (the rest, 8 apart within a
// stage) and the embedding group (first and last stage).
std::vector<Group> groupsOf(std::int32_t r, std::int32_t world) {
    const std::int32_t tp = std::min(8, world), pp = std::max(1, std::min(8, world / tp)), stage = world / pp;
    const std::int32_t stageOf = r / stage, inStage = r % stage, tpBlock = inStage / tp, tpIndex = r % tp;
    std::vector<Group> g;
    auto add = [&](std::string name, std::string desc, std::vector<std::int32_t> ranks) { g.push_back({std::move(name), std::move(desc), std::move(ranks)}); };
    std::vector<std::int32_t> all(static_cast<std::size_t>(world));
    for (std::int32_t i = 0; i < world; ++i) all[static_cast<std::size_t>(i)] = i;
    add("0", "default_pg", all);
    std::vector<std::int32_t> tpRanks, ppRanks, dpRanks, emb;
    for (std::int32_t i = 0; i < tp; ++i) tpRanks.push_back(stageOf * stage + tpBlock * tp + i);
    for (std::int32_t s = 0; s < pp; ++s) ppRanks.push_back(s * stage + inStage);
    for (std::int32_t b = 0; b < stage / tp; ++b) dpRanks.push_back(stageOf * stage + b * tp + tpIndex);
    emb = {inStage, (pp - 1) * stage + inStage};
    if (emb[0] == emb[1]) emb.pop_back();
    add("tp" + std::to_string(r / tp), "TENSOR_MODEL_PARALLEL_GROUP", tpRanks);
    add("ep" + std::to_string(r / tp), "EXPERT_MODEL_PARALLEL_GROUP", tpRanks);
    add("pp" + std::to_string(inStage), "PIPELINE_MODEL_PARALLEL_GROUP", ppRanks);
    add("dp" + std::to_string(stageOf * tp + tpIndex), "DATA_PARALLEL_GROUP_WITH_CP", dpRanks);
    add("emb" + std::to_string(inStage), "EMBEDDING_GROUP", emb);
    return g;
}

std::string rankText(const std::vector<std::int32_t>& ranks) {
    std::string s = "[";
    for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
    return s + "]";
}

struct EntryValues {
    std::int64_t record, pgId, seq, p2pSeq, created;
    std::string group, desc, state;
    const Template* t;
    bool completed;
};

// The schedule of rank r: entry i runs template i % T in the group of that template's
// description; every member of a group runs the same schedule, so sequence numbers agree.
std::vector<EntryValues> scheduleOf(std::int32_t r, std::int32_t world, int entries, const std::vector<Template>& templates,
                                    const std::vector<Group>& groups, std::map<std::string, std::array<std::int64_t, 3>>& status) {
    const std::int32_t culprit = world / 3;
    const int hangAt = entries - 10;  // the culprit never enqueues the last ten
    const int mine = r == culprit ? hangAt : entries;
    std::map<std::string, std::int64_t> pgIds;
    for (std::size_t i = 0; i < groups.size(); ++i) pgIds[groups[i].desc] = static_cast<std::int64_t>(i);
    std::map<std::string, std::int64_t> seqs;
    std::int64_t p2p = 0;
    std::vector<EntryValues> out;
    const std::int64_t base = 1758610505000000000;
    for (int i = 0; i < mine; ++i) {
        const Template& t = templates[static_cast<std::size_t>(i) % templates.size()];
        auto pg = pgIds.find(t.desc);
        const std::size_t gi = pg == pgIds.end() ? 1 : static_cast<std::size_t>(pg->second);
        const Group& g = groups[gi];
        std::int64_t& seq = seqs[g.name];
        if (!t.p2p) ++seq;
        if (t.p2p) ++p2p;
        const bool done = i < hangAt;
        out.push_back({100000 + i, static_cast<std::int64_t>(gi), seq, t.p2p ? p2p : 0, base + std::int64_t{1000000} * i + r, g.name, g.desc,
                       done ? "completed" : "started", &t, done});
        auto& s = status[std::to_string(gi)];
        s[0] = seq;
        if (done) s[2] = seq;
    }
    return out;
}

std::string pickleDump(std::int32_t r, std::int32_t world, int entries, const std::vector<Template>& templates) {
    const std::vector<Group> groups = groupsOf(r, world);
    std::map<std::string, std::array<std::int64_t, 3>> status;
    for (std::size_t i = 0; i < groups.size(); ++i) status[std::to_string(i)] = {-1, -1, -1};
    const std::vector<EntryValues> sched = scheduleOf(r, world, entries, templates, groups, status);
    PickleWriter w;
    w.beginDict();
    w.mark();
    w.str("version");
    w.str("2.9");
    w.str("pg_config");
    w.beginDict();
    w.mark();
    for (const Group& g : groups) {
        w.str(g.name);
        w.beginDict();
        w.mark();
        w.str("name");
        w.str(g.name);
        w.str("desc");
        w.str(g.desc);
        w.str("ranks");
        w.str(rankText(g.ranks));
        w.setItems();
    }
    w.setItems();
    w.str("nccl_version");
    w.str("2.27.3");
    w.str("pg_status");
    w.beginDict();
    w.mark();
    for (const auto& [id, s] : status) {
        w.str(id);
        w.beginDict();
        w.mark();
        w.str("last_enqueued_collective");
        w.integer(s[0]);
        w.str("last_started_collective");
        w.integer(-1);
        w.str("last_completed_collective");
        w.integer(s[2]);
        w.setItems();
    }
    w.setItems();
    w.str("entries");
    w.beginList();
    for (std::size_t from = 0; from < sched.size(); from += 1000) {
        w.mark();
        for (std::size_t k = from; k < std::min(sched.size(), from + 1000); ++k) {
            const EntryValues& e = sched[k];
            auto sizes = [&](const std::vector<std::vector<std::int64_t>>& v) {
                w.beginList();
                w.mark();
                for (const auto& t : v) {
                    w.beginList();
                    w.mark();
                    for (std::int64_t d : t) w.integer(d);
                    w.appends();
                }
                w.appends();
            };
            auto dtypes = [&](std::size_t n) {
                w.beginList();
                w.mark();
                for (std::size_t i = 0; i < n; ++i) w.str(e.t->dtype);
                w.appends();
            };
            w.beginDict();
            w.mark();
            w.str("record_id"), w.integer(e.record);
            w.str("pg_id"), w.integer(e.pgId);
            w.str("process_group"), w.str(e.group), w.str(e.desc), w.tuple2();
            w.str("thread_name"), w.str("python3");
            w.str("thread_id"), w.str("23456244340032");
            w.str("collective_seq_id"), w.integer(e.seq);
            w.str("p2p_seq_id"), w.integer(e.p2pSeq);
            w.str("op_id"), w.integer(e.seq + e.p2pSeq);
            w.str("profiling_name"), w.str(e.t->op);
            w.str("time_created_ns"), w.integer(e.created);
            w.str("input_sizes"), sizes(e.t->in);
            w.str("input_dtypes"), dtypes(e.t->in.size());
            w.str("output_sizes"), sizes(e.t->out);
            w.str("output_dtypes"), dtypes(e.t->out.size());
            w.str("state"), w.str(e.state);
            w.str("time_discovered_started_ns"), w.integer(e.created + 1000);
            w.str("time_discovered_completed_ns");
            if (e.completed) w.integer(e.created + 500000);
            else w.none();
            w.str("retired"), w.boolean(e.completed);
            w.str("timeout_ms"), w.integer(180000);
            w.str("is_p2p"), w.boolean(e.t->p2p);
            w.setItems();
        }
        w.appends();
    }
    w.setItems();
    return w.finish();
}

std::string jsonDump(std::int32_t r, std::int32_t world, int entries, const std::vector<Template>& templates) {
    const std::vector<Group> groups = groupsOf(r, world);
    std::map<std::string, std::array<std::int64_t, 3>> status;
    for (std::size_t i = 0; i < groups.size(); ++i) status[std::to_string(i)] = {-1, -1, -1};
    const std::vector<EntryValues> sched = scheduleOf(r, world, entries, templates, groups, status);
    nlohmann::json d = {{"version", "2.9"}, {"nccl_version", "2.27.3"}, {"rank", r}};
    for (const Group& g : groups) d["pg_config"][g.name] = {{"name", g.name}, {"desc", g.desc}, {"ranks", rankText(g.ranks)}};
    for (const auto& [id, s] : status)
        d["pg_status"][id] = {{"last_enqueued_collective", s[0]}, {"last_started_collective", -1}, {"last_completed_collective", s[2]}};
    nlohmann::json list = nlohmann::json::array();
    for (const EntryValues& e : sched)
        list.push_back({{"record_id", e.record}, {"pg_id", e.pgId}, {"process_group", {e.group, e.desc}}, {"thread_name", "python3"},
                        {"thread_id", "23456244340032"}, {"collective_seq_id", e.seq}, {"p2p_seq_id", e.p2pSeq}, {"op_id", e.seq + e.p2pSeq},
                        {"profiling_name", e.t->op}, {"time_created_ns", e.created}, {"input_sizes", e.t->in},
                        {"input_dtypes", std::vector<std::string>(e.t->in.size(), e.t->dtype)}, {"output_sizes", e.t->out},
                        {"output_dtypes", std::vector<std::string>(e.t->out.size(), e.t->dtype)}, {"state", e.state},
                        {"time_discovered_started_ns", e.created + 1000},
                        {"time_discovered_completed_ns", e.completed ? nlohmann::json(e.created + 500000) : nlohmann::json()},
                        {"retired", e.completed}, {"timeout_ms", 180000}, {"is_p2p", e.t->p2p}});
    d["entries"] = std::move(list);
    return d.dump();
}

double seconds(timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

// Runs `step` in a child process: its wall time, CPU time and peak memory are its own.
void timed(const char* name, const std::function<std::string()>& step) {
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        try {
            const std::string what = step();
            std::printf("  %s\n", what.c_str());
            std::fflush(stdout);
            _exit(0);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s failed: %s\n", name, e.what());
            _exit(1);
        }
    }
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-7s %7.2f s  (CPU %6.2f s)  peak RSS %6ld MB%s\n", name, wall, seconds(ru.ru_utime) + seconds(ru.ru_stime), ru.ru_maxrss / 1024,
                WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "  FAILED");
}

}  // namespace

int main(int argc, char** argv) {
    std::int32_t ranks = 1024;
    int entries = 1000;
    std::string form = "pickle", dir, only;
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--ranks") ranks = std::stoi(value());
        else if (a == "--entries") entries = std::stoi(value());
        else if (a == "--form") form = value();
        else if (a == "--dir") dir = value();
        else if (a == "--only") only = value();
        else if (a == "--keep") keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--ranks N] [--entries N] [--form pickle|json] [--dir DIR] [--keep] [--only import|hang]\n", argv[0]);
            return 2;
        }
    }
    if (form != "pickle" && form != "json") {
        std::fprintf(stderr, "--form is pickle or json\n");
        return 2;
    }
    const bool ownDir = dir.empty();
    if (ownDir) dir = (fs::temp_directory_path() / ("faultline_bench_fr_" + std::to_string(getpid()))).string();
    fs::create_directories(dir);

    const std::vector<Template> templates = realTemplates();
    const std::string suffix = form == "json" ? ".json" : "";
    const std::string shape = dir + "/.shape";
    const std::string wanted = std::to_string(ranks) + " " + std::to_string(entries) + " " + form;
    std::string have;
    if (std::ifstream in(shape); in) std::getline(in, have);
    std::uint64_t bytes = 0;
    const auto genStart = std::chrono::steady_clock::now();
    if (have != wanted) {
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().rfind("_dump_", 0) == 0) fs::remove(e.path());
        for (std::int32_t r = 0; r < ranks; ++r) {
            const std::string data = form == "json" ? jsonDump(r, ranks, entries, templates) : pickleDump(r, ranks, entries, templates);
            std::ofstream(dir + "/_dump_" + std::to_string(r) + suffix, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
        }
        std::ofstream(shape) << wanted << "\n";
    }
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename().string().rfind("_dump_", 0) == 0) bytes += e.file_size();
    std::printf("%d ranks x %d entries, %s: %.0f MB of dumps in %s (%s in %.1f s)\n", ranks, entries, form.c_str(), static_cast<double>(bytes) / 1e6,
                dir.c_str(), have == wanted ? "reused" : "written",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - genStart).count());

    const std::string runFile = dir + ".faultline";  // beside the folder: never read as a dump
    if (only.empty() || only == "import")
        timed("import", [&] {
            faultline::ImportOptions options;
            options.format = form == "json" ? "flight-recorder-json" : "flight-recorder";
            const faultline::ImportSummary s = faultline::importToRunFile({dir}, runFile, options);
            return std::to_string(s.gpus) + " GPUs, run file " + std::to_string(fs::file_size(runFile) / 1000000) + " MB";
        });
    if (only.empty() || only == "hang")
        timed("hang", [&] {
            const faultline::HangReport report = faultline::analyzeHang(faultline::readFlightRecorderDumps({dir}));
            std::string culprits;
            for (std::int32_t c : report.culprits) culprits += (culprits.empty() ? "" : ",") + std::to_string(c);
            return std::to_string(report.dumps) + " dumps, " + std::to_string(report.findings.size()) + " findings, culprit ranks " + culprits;
        });
    fs::remove(runFile);
    if (ownDir && !keep) fs::remove_all(dir);
    return 0;
}
