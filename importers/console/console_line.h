#pragma once
// One line of a job's console output with what wraps it peeled off. Launchers, schedulers,
// collectors and viewers each put their prefix before the line the program printed:
//   srun -l            "12: "                       (task = global rank)
//   torchrun           "[default3]:", "[rank12]:", "[default0]:[rank12]:"
//   mpirun --tag       "[1,12]<stdout>:"            (rank 12)
//   pdsh / clush       "node017: ", "10.1.2.3: "
//   Ray                "(RayWorker pid=123, ip=10.0.0.2) "
//   kubectl --prefix   "[pod/trainer-0/pytorch] "
//   collectors         "2024-03-05T10:00:00.123Z ", "[2024-03-05 10:00:00] " (kubectl --timestamps,
//                      Loki, CloudWatch, GitHub Actions)
//   journald / syslog  "Mar  5 10:00:00 node017 python[1234]: "  (no year)
//   glog / c10         "[E0610 03:10:05.123456 4242 ProcessGroupNCCL.cpp:616] " (no year)
//   a viewer           "  123\t", "123 | "       (line numbers)
//   set -x             "+ srun ...", "++ hostname"
//   a runner           "dinov2-giant-nodes.cn-d003.nolog [stderr] ", "[stdout] " (a host inside its name)
//   CRI (Kubernetes)   "2024-01-01T00:00:00.123Z stdout F "  (P: the line goes on in the next one)
//   JSON records       {"@timestamp":...,"@message":...}, Docker's {"log":...,"time":...}, journald's
//                      {"MESSAGE":...}: the message read as the line (text/log_record.h)
// plus ANSI colours anywhere (with the ESC byte or, pasted, without it) and progress bars
// redrawn with '\r' or joined to the next line with nothing between.
// The peeler remembers the rank, host and time the wrappers named. A time without its year
// depends on the lines before it (the year nearest the log's last date): a peeler without a
// YearResolver leaves it to resolveYear, so that lines can be peeled out of order (in chunks,
// on several threads) and their years resolved in order afterwards.
#include "importers/events/imported_events.h"
#include "importers/text/year_resolver.h"

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

struct ConsoleLine {
    std::string_view text;         // what the program printed, wrappers removed
    std::int32_t rank = -1;        // the global rank a wrapper named; -1: none
    std::int32_t localRank = -1;   // torchrun's "[defaultN]:": the node-local rank
    std::string_view host;         // the host a wrapper named; empty: none
    std::optional<EpochNs> time;   // the time a wrapper (or the line itself, at its start) gave
    bool shellTrace = false;       // a `set -x` trace line
    bool partial = false;          // a runtime split the line: the next record goes on with it
    // Left for resolveYear by a deferring peeler: the yearless time that is the line's time,
    // and the last full date its wrappers gave (which later yearless times are placed near).
    struct Yearless {
        unsigned month = 0, day = 0;
        std::int64_t secondOfDay = 0, fracNs = 0;
    };
    std::optional<Yearless> yearless;
    std::optional<EpochNs> dated;
    bool yearAssumed = false;  // resolveYear gave its yearless time a year the log does not print
    bool yearOmitted = false;  // its time was printed without a year (resolveYear gave it one)
};

// Gives a line peeled by a deferring peeler its time, as a resolving peeler would have at
// this point of the log: lines must come here in the log's order.
void resolveYear(ConsoleLine& line, YearResolver& years);

class ConsoleLinePeeler {
public:
    // Resolves yearless times as it peels: lines must be peeled in the log's order.
    explicit ConsoleLinePeeler(YearResolver& years) : m_years(&years) {}
    // Leaves yearless times to resolveYear: lines may be peeled in any order.
    ConsoleLinePeeler() = default;

    // The lines one physical line holds ('\r' redraws, a bar with the next line joined to it),
    // each peeled. The views are valid until the next call.
    void split(std::string_view raw, std::vector<ConsoleLine>& out);
    // The same for a line already without colour codes (stripAnsi): the views are into `plain`,
    // or, for a collector's JSON record, into the message kept at the end of `keep` (when
    // given; else valid until the next call).
    void splitPlain(std::string_view plain, std::vector<ConsoleLine>& out, std::deque<std::string>* keep = nullptr);
    // Peels one logical line.
    ConsoleLine peel(std::string_view line);

private:
    void splitSegments(std::string_view plain, std::vector<ConsoleLine>& out);

    // What a JSON record around the lines being peeled gave them: the outermost wrapper.
    struct Outer {
        std::optional<EpochNs> time;
        std::string_view host;
        bool partial = false;
    };
    std::string m_plain;  // the line without its colour codes, when it had any
    std::deque<std::string> m_record;  // a record's message and host, when no `keep` is given
    Outer m_outer;
    YearResolver* m_years = nullptr;
};

// `s` without ANSI colour codes ("\x1b[1;31m", or "[31m" where the ESC byte was lost);
// `s` itself when it has none, else a view of `scratch`.
std::string_view stripAnsi(std::string_view s, std::string& scratch);

}  // namespace faultline
