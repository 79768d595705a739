// Kineto import throughput and memory: builds plain-JSON traces by copying the events of a
// real one (HTA's nccl_data.json.gz, rank 0 of 2), each copy with its timestamps shifted past
// the previous one, imports them, and prints MB/s (in all, and per core of CPU time) and peak
// resident memory. Memory must follow the events kept, not file size.
//
//   faultline_bench_importers [--mb SIZE] [--ranks N] [--workers N] [--source TRACE] [--trace FILE]... [--keep]
//     --mb       size of each generated trace in MB (default 1024 with one rank)
//     --ranks    write N rank files (distributedInfo.rank 0..N-1) and import them together
//     --workers  import with this many threads (default: every core)
//     --source   the real trace to copy events from (default HTA's nccl_data.json.gz)
//     --trace    import this file instead of generating any (repeat for several)
//     --keep     leave the generated traces in the temporary folder
#include "importers/importer.h"
#include "importers/text/input_file.h"
#include "importers/text/read_whole_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

double cpuSeconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// Bytes of JSON in the file: its size, or for gzip its decompressed size.
double jsonMb(const std::string& path) {
    faultline::InputFile in(path);
    if (!in.compressed()) return static_cast<double>(in.size()) / 1e6;
    std::vector<char> buf(1 << 20);
    while (in.read(buf.data(), buf.size()) > 0) {}
    return static_cast<double>(in.decompressedOffset()) / 1e6;
}

long peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

// The microsecond timestamps of "ts" fields: where each integer part starts and ends.
struct TsField {
    std::size_t begin, end;
    long long micros;
};

std::vector<TsField> findTimestamps(const std::string& body) {
    std::vector<TsField> out;
    for (std::size_t at = body.find("\"ts\":"); at != std::string::npos; at = body.find("\"ts\":", at + 5)) {
        std::size_t b = at + 5;
        while (b < body.size() && body[b] == ' ') ++b;
        std::size_t e = b;
        while (e < body.size() && body[e] >= '0' && body[e] <= '9') ++e;
        if (e > b) out.push_back({b, e, std::stoll(body.substr(b, e - b))});
    }
    return out;
}

// Writes {"distributedInfo": {"rank": RANK, ...}, "traceEvents": [copies of the events]}
// until `bytes` is reached, streaming; each copy is shifted in time past the one before.
std::uint64_t writeTrace(const std::string& source, const std::string& out, std::uint64_t bytes, int rank) {
    const std::string whole = faultline::readWholeFile(source);
    const std::size_t key = whole.find("\"traceEvents\"");
    const std::size_t open = whole.find('[', key);
    // The array's own closing bracket: other arrays ("INFO") may follow it.
    std::size_t close = std::string::npos;
    int depth = 0;
    bool inString = false;
    for (std::size_t i = open; open != std::string::npos && i < whole.size() && close == std::string::npos; ++i) {
        const char c = whole[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            close = i;
        }
    }
    if (key == std::string::npos || open == std::string::npos || close == std::string::npos || close < open)
        throw std::runtime_error(source + " is not a Chrome trace");
    std::string body = whole.substr(open + 1, close - open - 1);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\n' || body.back() == ',')) body.pop_back();
    std::string head = whole.substr(0, open + 1);
    if (const std::size_t info = head.find("\"distributedInfo\""); info != std::string::npos) {
        const std::size_t r = head.find("\"rank\": 0", info);
        if (r != std::string::npos) head.replace(r, 9, "\"rank\": " + std::to_string(rank));
    }
    const std::string tail = whole.substr(close);
    const std::vector<TsField> stamps = findTimestamps(body);
    long long first = 0, last = 0;
    for (const TsField& t : stamps) {
        first = first == 0 ? t.micros : std::min(first, t.micros);
        last = std::max(last, t.micros);
    }
    const long long period = last - first + 1'000'000;  // a second between copies

    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + out);
    std::uint64_t written = std::fwrite(head.data(), 1, head.size(), f);
    for (long long copy = 0; written < bytes; ++copy) {
        if (copy > 0) written += std::fwrite(",", 1, 1, f);
        std::size_t at = 0;
        for (const TsField& t : stamps) {
            written += std::fwrite(body.data() + at, 1, t.begin - at, f);
            const std::string shifted = std::to_string(t.micros + copy * period);
            written += std::fwrite(shifted.data(), 1, shifted.size(), f);
            at = t.end;
        }
        written += std::fwrite(body.data() + at, 1, body.size() - at, f);
    }
    written += std::fwrite(tail.data(), 1, tail.size(), f);
    std::fclose(f);
    return written;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t mb = 0;
    int ranks = 1;
    int workers = 0;
    std::vector<std::string> traces;
    bool keep = false;
    std::string source = std::string(FAULTLINE_REALDATA) + "/kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--mb") && i + 1 < argc) mb = std::stoull(argv[++i]);
        else if (!std::strcmp(argv[i], "--ranks") && i + 1 < argc) ranks = std::max(1, std::stoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--workers") && i + 1 < argc) workers = std::stoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--trace") && i + 1 < argc) traces.push_back(argv[++i]);
        else if (!std::strcmp(argv[i], "--source") && i + 1 < argc) source = argv[++i];
        else if (!std::strcmp(argv[i], "--keep")) keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--mb SIZE] [--ranks N] [--workers N] [--source TRACE] [--trace FILE]... [--keep]\n", argv[0]);
            return 2;
        }
    }
    if (mb == 0) mb = ranks == 1 ? 1024 : 50;
    try {
        const bool generated = traces.empty();
        if (generated) {
            for (int rank = 0; rank < ranks; ++rank) {
                const std::string path = (std::filesystem::temp_directory_path() / ("faultline_bench_trace_rank" + std::to_string(rank) + ".json")).string();
                const std::uint64_t size = writeTrace(source, path, mb << 20, rank);
                std::printf("generated %s: %.1f MB of plain JSON from %s\n", path.c_str(), static_cast<double>(size) / 1e6, source.c_str());
                traces.push_back(path);
            }
        }
        double diskMb = 0, fileMb = 0;
        for (const std::string& t : traces) {
            diskMb += static_cast<double>(std::filesystem::file_size(t)) / 1e6;
            fileMb += jsonMb(t);
        }
        const long rssBefore = peakRssMb();
        const double cpu0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        faultline::ImportOptions options;
        options.format = "kineto";
        options.workers = workers;
        const faultline::ImportResult r = faultline::importFiles(traces, options);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = cpuSeconds() - cpu0;
        std::int64_t events = 0, collectives = 0, steps = 0;
        for (const auto& f : r.summary.files) {
            events += f.counts.at("trace events");
            collectives += f.counts.count("collectives") ? f.counts.at("collectives") : 0;
            steps += f.counts.count("steps") ? f.counts.at("steps") : 0;
        }
        std::printf("kineto import: %zu file(s), %.1f MB of JSON (%.1f MB on disk) in %.2f s wall, %.2f s CPU = %.0f MB/s in all, %.0f MB/s per core\n",
                    traces.size(), fileMb, diskMb, secs, cpu, fileMb / secs, fileMb / cpu);
        std::printf("  trace events %lld, collectives kept %lld, steps %lld\n", static_cast<long long>(events),
                    static_cast<long long>(collectives), static_cast<long long>(steps));
        std::printf("  peak RSS %ld MB (before import %ld MB)\n", peakRssMb(), rssBefore);
        if (generated && !keep)
            for (const std::string& t : traces) std::filesystem::remove(t);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
