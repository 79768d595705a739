#include "prometheus_server.h"

#include "simulator/simulator.h"
#include "simulator/telemetry_log_lines.h"
#include "test_runs.h"

#include "model/error.h"

#include <crypt.h>
#include <curl/curl.h>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace faultline::test {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return (fs::path(dir) / program).string();
    return std::nullopt;
}

std::string readText(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// "00000000:18:00.0", dcgm-exporter's spelling of "0000:18:00.0".
std::string dcgmBusId(const std::string& busId) { return "0000" + busId; }

// The metrics and how each reading gives them.
const std::vector<std::string>& metricsOf(bool all) {
    static const std::vector<std::string> two = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP"};
    static const std::vector<std::string> five = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK",
                                                  "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"};
    return all ? five : two;
}

double readingOf(const GpuReading& r, const std::string& metric) {
    if (metric == "DCGM_FI_DEV_POWER_USAGE") return r.power;
    if (metric == "DCGM_FI_DEV_GPU_TEMP") return r.temperature;
    if (metric == "DCGM_FI_DEV_SM_CLOCK") return r.smClock;
    if (metric == "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS") return r.throttleReasons;
    return r.eccCorrected;
}

// "%.9g" gives a float back exactly; the server keeps and returns that decimal.
std::string valueText(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(v)));
    return text;
}

std::string secondsText(EpochNs t) {
    char text[40];
    std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(t / 1'000'000'000), static_cast<long long>(t / 1'000'000 % 1000));
    return text;
}

History describe(const HistorySpec& spec) {
    History h;
    h.run = &historyRun(spec.gpus);
    h.gpus = spec.gpus;
    h.interval = spec.interval;
    const TelemetryModel& model = historyModel(spec.gpus, spec.interval);
    h.samples = std::min<std::int64_t>(model.samples(), spec.span / spec.interval + 1);
    // Whole milliseconds: the server keeps milliseconds.
    h.first = (h.run->info.startEpochNs + 999'999) / 1'000'000 * 1'000'000;
    h.last = h.sampleTime(h.samples - 1);
    h.metrics = metricsOf(spec.allMetrics);
    const Topology& t = h.run->topology;
    for (std::int32_t g = 0; g < spec.gpus; ++g) {
        const std::string& name = t.hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)].name;
        if (h.hosts.empty() || h.hosts.back() != name) h.hosts.push_back(name);
    }
    return h;
}

// The OpenMetrics text promtool reads of one metric, each series in time order.
void writeOpenMetrics(const History& h, const std::string& metric, const fs::path& path) {
    std::ofstream out(path, std::ios::binary);
    const Topology& t = h.run->topology;
    const TelemetryModel& model = historyModel(h.gpus, h.interval);
    std::vector<std::string> labels;
    for (std::int32_t g = 0; g < h.gpus; ++g) {
        const Gpu& gpu = t.gpus[static_cast<std::size_t>(g)];
        labels.push_back("{gpu=\"" + std::to_string(gpu.index) + "\",UUID=\"" + simulatedGpuUuid(t, g) + "\",pci_bus_id=\"" + dcgmBusId(gpu.pciBusId) +
                         "\",device=\"nvidia" + std::to_string(gpu.index) + "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"" +
                         t.hosts[static_cast<std::size_t>(gpu.host)].name + "\"} ");
    }
    std::string chunk;
    out << "# TYPE " << metric << " gauge\n";
    for (std::int64_t k = 0; k < h.samples; ++k) {
        const std::string time = secondsText(h.sampleTime(k));
        chunk.clear();
        for (std::int32_t g = 0; g < h.gpus; ++g)
            chunk.append(metric).append(labels[static_cast<std::size_t>(g)]).append(valueText(readingOf(model.reading(g, k), metric))).append(" ").append(time).append("\n");
        out << chunk;
    }
    out << "# EOF\n";
    if (!out.flush()) throw Error(path.string() + ": cannot write the OpenMetrics history");
}

int freePort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        ::close(s);
        throw Error("cannot find a free port on 127.0.0.1");
    }
    ::close(s);
    return ntohs(a.sin_port);
}

bool ready(const std::string& url) {
    CURL* c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_URL, (url + "/-/ready").c_str());
    curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 2000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    long status = 0;
    if (curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    return status == 200 || status == 401;  // a server behind basic auth answers 401 once up
}

// Starts argv[0] with its output (both streams) written to `log`; its pid.
pid_t spawnLogged(const std::vector<std::string>& argv, const fs::path& log) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    return pid;
}

int run(const std::vector<std::string>& argv, const fs::path& log) {
    const pid_t pid = spawnLogged(argv, log);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::optional<std::string> prometheusMissing() {
    if (!onPath("prometheus")) return "prometheus is not installed (Debian's package `prometheus`; packaging/install-deps.sh installs it)";
    if (!onPath("promtool")) return "promtool is not installed (it comes with Debian's package `prometheus`)";
    return std::nullopt;
}

namespace {

SimulationParams historyParams(std::int32_t gpus) {
    SimulationParams p = simulationPreset("tiny");
    p.seed = 7;
    if (gpus > p.fabric.gpus) p.fabric.gpus = gpus;
    return p;
}

}  // namespace

const Run& historyRun(std::int32_t gpus) {
    static std::mutex mutex;
    static std::map<std::int32_t, std::unique_ptr<Run>> runs;
    if (gpus <= historyParams(0).fabric.gpus) return tinyRun();
    std::lock_guard lock(mutex);
    auto& r = runs[gpus];
    if (!r) r = std::make_unique<Run>(simulate(historyParams(gpus)));
    return *r;
}

const TelemetryModel& historyModel(std::int32_t gpus, Nanos interval) {
    const Run& run = historyRun(gpus);
    static std::mutex mutex;
    static std::map<std::pair<const Run*, Nanos>, std::unique_ptr<TelemetryModel>> models;
    std::lock_guard lock(mutex);
    auto& m = models[{&run, interval}];
    if (!m) {
        const SimulationParams p = historyParams(gpus);
        m = std::make_unique<TelemetryModel>(run, p.seed, p.diurnalAmplitude, interval);
    }
    return *m;
}

double historyValue(const History& h, const std::string& metric, std::int32_t gpu, std::int64_t k) {
    return std::strtod(valueText(readingOf(historyModel(h.gpus, h.interval).reading(gpu, k), metric)).c_str(), nullptr);
}

const History& backfilledHistory(const HistorySpec& spec) {
    static std::mutex mutex;
    static std::map<std::string, History> made;
    std::lock_guard lock(mutex);
    if (auto it = made.find(spec.name); it != made.end()) return it->second;
    History h = describe(spec);
    const fs::path dir = fs::path(FAULTLINE_TEST_CACHE_DIR) / ("prometheus-" + spec.name);
    fs::create_directories(dir.parent_path());
    // One process makes it; the others wait on the lock and find it made.
    const int lockFd = ::open((dir.string() + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    ::flock(lockFd, LOCK_EX);
    if (!fs::exists(dir / "done")) {
        fs::remove_all(dir);
        fs::create_directories(dir);
        // A metric at a time: the text of 1,024 GPUs' five metrics would be gigabytes at once.
        for (const std::string& metric : h.metrics) {
            writeOpenMetrics(h, metric, dir / "history.om");
            const int rc = run({*onPath("promtool"), "tsdb", "create-blocks-from", "openmetrics", "--quiet",
                                "--max-block-duration=" + std::to_string(spec.span / kHour + 24) + "h", (dir / "history.om").string(), (dir / "blocks").string()},
                               dir / "promtool.log");
            fs::remove(dir / "history.om");
            if (rc != 0) {
                ::close(lockFd);
                throw Error("promtool could not backfill the history (exit " + std::to_string(rc) + "): " + readText(dir / "promtool.log"));
            }
        }
        std::ofstream(dir / "done") << "made\n";
    }
    ::close(lockFd);
    h.blocks = dir / "blocks";
    return made.emplace(spec.name, std::move(h)).first->second;
}

PrometheusProcess::PrometheusProcess(const fs::path& blocks, const std::string& webConfig) {
    char tmpl[] = "/tmp/faultline-prometheus-XXXXXX";
    if (!::mkdtemp(tmpl)) throw Error("cannot make a folder for the Prometheus server");
    m_dir = tmpl;
    // Hard links: blocks are never written once made, and the server's compactions replace
    // files rather than change them.
    fs::copy(blocks, m_dir / "data", fs::copy_options::recursive | fs::copy_options::create_hard_links);
    std::ofstream(m_dir / "prometheus.yml") << "global:\n  scrape_interval: 1h\n";
    std::vector<std::string> argv = {*onPath("prometheus"), "--config.file=" + (m_dir / "prometheus.yml").string(),
                                     "--storage.tsdb.path=" + (m_dir / "data").string(), "--storage.tsdb.retention.time=100y",
                                     "--web.listen-address=127.0.0.1:" + std::to_string(freePort()), "--log.level=warn"};
    m_url = "http://" + argv[4].substr(argv[4].find('=') + 1);
    if (!webConfig.empty()) {
        std::ofstream(m_dir / "web.yml") << webConfig;
        argv.push_back("--web.config.file=" + (m_dir / "web.yml").string());
    }
    m_argv = std::move(argv);
    start();
}

void PrometheusProcess::restart() {
    if (m_pid <= 0) start();
}

void PrometheusProcess::start() {
    const fs::path log = m_dir / "prometheus.log";
    m_pid = spawnLogged(m_argv, log);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!ready(m_url)) {
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_pid = -1;
            throw Error("prometheus exited before it was ready: " + readText(log));
        }
        if (std::chrono::steady_clock::now() > deadline) {
            stop();
            throw Error("prometheus was not ready within 2 minutes: " + readText(log));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

void PrometheusProcess::stop() {
    if (m_pid <= 0) return;
    ::kill(m_pid, SIGTERM);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
}

PrometheusProcess::~PrometheusProcess() {
    stop();
    std::error_code ec;
    fs::remove_all(m_dir, ec);
}

std::string bcryptHash(const std::string& password) {
    const char* salt = ::crypt_gensalt("$2b$", 4, nullptr, 0);
    if (!salt) throw Error("libcrypt cannot make a bcrypt salt");
    crypt_data data{};
    const char* hash = ::crypt_r(password.c_str(), salt, &data);
    if (!hash || hash[0] == '*') throw Error("libcrypt cannot hash with bcrypt");
    return hash;
}

}  // namespace faultline::test
