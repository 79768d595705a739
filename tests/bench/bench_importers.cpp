// Kineto import throughput and memory: builds a large plain-JSON trace by repeating the
// events of a real one (HTA's nccl_data.json.gz, rank 0 of 2), imports it on one core, and
// prints MB/s and peak resident memory. Memory must follow the events kept, not file size.
//
//   faultline_bench_importers [--mb SIZE] [--trace FILE] [--keep]
//     --mb     size of the generated trace in MB (default 1024; 2048 for the 2 GB check)
//     --trace  import this file instead of generating one
//     --keep   leave the generated trace in the temporary folder
#include "importers/importer.h"
#include "importers/input_file.h"
#include "importers/read_whole_file.h"

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

// Writes {"distributedInfo":..., "traceEvents":[ events x N ]} until `bytes` is reached,
// streaming, so the generator itself holds one copy of the source events only.
std::uint64_t writeTrace(const std::string& source, const std::string& out, std::uint64_t bytes) {
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
    const std::string head = whole.substr(0, open + 1);
    const std::string tail = whole.substr(close);
    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + out);
    std::uint64_t written = std::fwrite(head.data(), 1, head.size(), f);
    bool first = true;
    while (written < bytes) {
        if (!first) written += std::fwrite(",", 1, 1, f);
        written += std::fwrite(body.data(), 1, body.size(), f);
        first = false;
    }
    written += std::fwrite(tail.data(), 1, tail.size(), f);
    std::fclose(f);
    return written;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t mb = 1024;
    std::string trace;
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--mb") && i + 1 < argc) mb = std::stoull(argv[++i]);
        else if (!std::strcmp(argv[i], "--trace") && i + 1 < argc) trace = argv[++i];
        else if (!std::strcmp(argv[i], "--keep")) keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--mb SIZE] [--trace FILE] [--keep]\n", argv[0]);
            return 2;
        }
    }
    try {
        const bool generated = trace.empty();
        if (generated) {
            trace = (std::filesystem::temp_directory_path() / "faultline_bench_trace.json").string();
            const std::string source = std::string(FAULTLINE_REALDATA) + "/kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz";
            const std::uint64_t size = writeTrace(source, trace, mb << 20);
            std::printf("generated %s: %.1f MB of plain JSON from %s\n", trace.c_str(), static_cast<double>(size) / 1e6, source.c_str());
        }
        const double diskMb = static_cast<double>(std::filesystem::file_size(trace)) / 1e6;
        const double fileMb = jsonMb(trace);
        const long rssBefore = peakRssMb();
        const double cpu0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        faultline::ImportOptions options;
        options.format = "kineto";
        const faultline::ImportResult r = faultline::importFiles({trace}, options);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = cpuSeconds() - cpu0;
        const auto& counts = r.summary.files.at(0).counts;
        std::printf("kineto import: %.1f MB of JSON (%.1f MB on disk) in %.2f s wall, %.2f s CPU = %.0f MB/s wall, %.0f MB/s CPU (one core)\n",
                    fileMb, diskMb, secs, cpu, fileMb / secs, fileMb / cpu);
        std::printf("  trace events %lld, collectives kept %lld, steps %lld\n",
                    static_cast<long long>(counts.at("trace events")), static_cast<long long>(counts.at("collectives")),
                    static_cast<long long>(counts.count("steps") ? counts.at("steps") : 0));
        std::printf("  peak RSS %ld MB (before import %ld MB)\n", peakRssMb(), rssBefore);
        if (generated && !keep) std::filesystem::remove(trace);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
