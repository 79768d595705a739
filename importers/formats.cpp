#include "importers/formats.h"

#include <cctype>

#include "importers/console/console_catalogue.h"
#include "importers/console/readers.h"
#include "importers/fabric/readers.h"
#include "importers/kernel/readers.h"
#include "importers/native/readers.h"
#include "importers/pytorch/readers.h"
#include "importers/slurm/readers.h"
#include "importers/slurm/sacct_headerless.h"
#include "importers/telemetry/readers.h"
#include "importers/console/console_line.h"
#include "importers/text/log_record.h"
#include "importers/text/input_file.h"
#include "importers/kernel/kernel_log_line.h"
#include "importers/text/line_reader.h"
#include "importers/pytorch/pickle_reader.h"
#include "importers/text/terminal_width.h"
#include "importers/text/text_parse.h"

namespace faultline {

const std::vector<FormatInfo>& formats() {
    static const std::vector<FormatInfo> kFormats = [] {
        std::vector<FormatInfo> all;
        using Family = const std::vector<FormatInfo>& (*)();
        for (Family family : {pytorchReaders, kernelReaders, consoleReaders, slurmReaders, fabricReaders, nativeReaders, telemetryReaders})
            for (const FormatInfo& f : family()) all.push_back(f);
        return all;
    }();
    return kFormats;
}

const FormatInfo* findFormat(std::string_view name) {
    for (const FormatInfo& f : formats())
        if (f.name == name) return &f;
    return nullptr;
}

std::string formatNames() {
    std::string out;
    for (const FormatInfo& f : formats()) out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

namespace {

// Logs of real jobs open with pages of shell trace and arguments: look far enough in.
constexpr std::size_t kHead = 1024 * 1024;

const FormatInfo* detectJson(std::string_view head) {
    if (contains(head, "\"faultline-topology\"")) return findFormat("faultline-topology");
    if (contains(head, "\"traceEvents\"") || contains(head, "\"deviceProperties\"") || contains(head, "\"distributedInfo\""))
        return findFormat("kineto");
    if (contains(head, "\"entries\"") && (contains(head, "\"pg_config\"") || contains(head, "\"pg_status\"")))
        return findFormat("flight-recorder-json");
    // Prometheus API responses (an envelope, or a bare result list of series), and Kepler's
    // map from metric names to query_range results.
    if (contains(head, "\"resultType\"") || (contains(head, "\"metric\"") && (contains(head, "\"values\"") || contains(head, "\"value\"")) &&
                                             contains(head, "\"__name__\"")))
        return findFormat("prometheus-json");
    // JSON Lines of Faultline events: the first line is one object with a "kind".
    const std::string_view firstLine = head.substr(0, head.find('\n'));
    if (contains(firstLine, "\"kind\"") && trim(firstLine).back() == '}') return findFormat("faultline-events");
    if (contains(head, "\"jobs\"") && (contains(head, "\"meta\"") || contains(head, "\"job_id\"")))
        return findFormat("sacct-json");
    return nullptr;
}

// Console logs are told by their content, not their first lines: any line, its wrappers
// peeled, that the console catalogue knows.
class ConsoleSniffer {
public:
    bool line(std::string_view raw) {
        if (known(raw)) {
            m_cut.clear();
            return true;
        }
        // A line cut at a terminal's width is judged whole, with the rest on the line after it.
        const bool whole = !m_cut.empty() && raw.size() <= m_cut.size() && known(m_cut + std::string(raw));
        m_cut.clear();
        if (terminalWide(raw.size())) m_cut.assign(raw);
        return whole;
    }

private:
    bool known(std::string_view raw) {
        m_peeler.split(raw, m_lines);
        for (const ConsoleLine& l : m_lines)
            if (!l.text.empty() && recogniseConsoleLine(l.text)) return true;
        return false;
    }

    std::string m_cut;  // the line before, when it was as long as a terminal is wide
    YearResolver m_years{2000, std::nullopt};
    ConsoleLinePeeler m_peeler{m_years};
    std::vector<ConsoleLine> m_lines;
};

bool consoleLineIn(std::string_view text) {
    ConsoleSniffer sniffer;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        if (sniffer.line(text.substr(0, nl))) return true;
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return false;
}

// A console log whose first megabyte is shell trace, configuration and data loading: the rest
// of the file, until its first line the catalogue knows.
bool consoleLineAfterHead(const std::string& path) {
    LineReader in(path);
    ConsoleSniffer sniffer;
    std::string_view line;
    while (in.next(line))
        if (sniffer.line(line)) return true;
    return false;
}

// GPU telemetry in text: Prometheus exposition (# HELP / # TYPE lines, or DCGM series),
// nvidia-smi --query-gpu CSV (its header's fields, or its timestamps), dmon headers.
// `name{label="value",...} value [timestamp]` or `name value [timestamp]`.
bool prometheusSample(std::string_view l, bool& labelled) {
    std::size_t i = 0;
    while (i < l.size() && (std::isalnum(static_cast<unsigned char>(l[i])) || l[i] == '_' || l[i] == ':')) ++i;
    if (i == 0 || i >= l.size() || std::isdigit(static_cast<unsigned char>(l[0]))) return false;
    if (l[i] == '{') {
        labelled = contains(l, "=\"") && contains(l, "} ");
        return labelled;
    }
    if (l[i] != ' ') return false;
    const std::string_view value = trim(l.substr(i));
    return !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '-' || value[0] == '+' || startsWith(value, "NaN"));
}

const FormatInfo* detectTelemetryText(const std::vector<std::string_view>& lines) {
    const std::string_view first = trim(lines.front());
    if (startsWith(first, "#Entity") || ((startsWith(first, "# gpu") || startsWith(first, "#Date") || startsWith(first, "#Time")) && contains(first, " gpu")) ||
        startsWith(first, "# gpu"))
        return findFormat("gpu-dmon");
    std::size_t labelledSamples = 0, other = 0;
    for (std::string_view l : lines) {
        const std::string_view t = trim(l);
        bool labelled = false;
        // "# HELP", "# TYPE", "# UNIT", "# EOF" and any other comment the exposition allows.
        if (startsWith(t, "#")) continue;
        if (prometheusSample(t, labelled)) labelledSamples += labelled;
        else ++other;
    }
    if (labelledSamples > 0 && other == 0) return findFormat("prometheus-text");
    if (contains(first, "timestamp") && (contains(first, "power.draw") || contains(first, "temperature.gpu") || contains(first, "utilization.gpu") ||
                                          contains(first, "clocks.") || contains(first, "memory.used") || contains(first, "pci.bus_id")))
        return findFormat("nvidia-smi-csv");
    return nullptr;
}

// A kernel log line, judged by its shape: one dated outside 1970-2262 ("[Sat Mar  4 04:10:52
// 9999]") is still one, left for the importer to refuse naming the file and line.
struct KernelLook {
    bool line = false;
    std::optional<KernelLogLine> entry;  // unset when the date is out of range
};

KernelLook kernelLogLineIn(std::string_view l) {
    try {
        KernelLook look;
        look.entry = parseKernelLogLine(l, 2000);
        look.line = look.entry.has_value();
        return look;
    } catch (const TimeOutOfRange&) {
        return {true, std::nullopt};
    }
}

// An ibnetdiscover node record, "Switch\t36 \"S-...\"" or "Ca  2 \"H-...\"" (a pasted dump's tabs
// become spaces), anywhere in the head: a tool's error lines may come first.
bool ibnetdiscoverRecordIn(const std::vector<std::string_view>& lines) {
    for (std::string_view l : lines) {
        std::string_view t = trim(l);
        const std::size_t kind = startsWith(t, "Switch") ? 6 : startsWith(t, "Ca") || startsWith(t, "Rt") ? 2 : 0;
        if (kind == 0 || t.size() <= kind || (t[kind] != ' ' && t[kind] != '\t')) continue;
        t = trim(t.substr(kind));
        std::size_t i = 0;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
        if (i > 0 && trim(t.substr(i)).substr(0, 1) == "\"") return true;
    }
    return false;
}

// A kernel's words in a line read as `dmesg --time-format iso`: a job's console behind a
// collector's ISO timestamps reads the same, and says "CUDA kernel errors" in its own words.
bool kernelWordsIn(std::string_view line, const KernelLogLine& entry) {
    return contains(line, "NVRM") || contains(line, "kernel:") || contains(line, " kernel ") || startsWith(line, "kern") ||
           rootCauseForKernelMessage(entry.message) || contains(entry.message, "pci ");
}

// Each line's kind on its own, its wrappers peeled: a kernel line (a kernel log's shape, or
// dmesg-iso with a kernel's words), or a job line (the console catalogue knows it). The file is
// what most of its lines are; a job's console dated like dmesg stays a job's console.
const FormatInfo* detectByLineKinds(const std::vector<std::string_view>& lines, bool console) {
    std::size_t kernelShaped = 0, candidates = 0, kernelLines = 0, jobLines = 0;
    ConsoleSniffer sniffer;
    std::size_t before = 0;  // the length of the line before
    for (std::string_view l : lines) {
        const bool afterCut = terminalWide(before);
        before = l.size();
        const KernelLook look = kernelLogLineIn(l);
        // No line of its own (a kmsg continuation, or the rest of a line cut at a terminal's
        // width), but it may complete a job's line.
        if (l.front() == ' ' || l.front() == '\t' || (afterCut && !look.line)) {
            if (console && sniffer.line(l)) ++jobLines;
            continue;
        }
        ++candidates;
        if (look.line) ++kernelShaped;
        // A date out of range is still a kernel line's shape: the importer names it.
        if (look.line && (!look.entry || look.entry->form != KernelLogForm::DmesgIso || kernelWordsIn(l, *look.entry))) ++kernelLines;
        else if (console && sniffer.line(l)) ++jobLines;
    }
    if (candidates == 0 || kernelShaped * 2 <= candidates) return nullptr;
    if (!console || kernelLines >= jobLines) return findFormat(kernelLines > 0 || jobLines == 0 ? "kernel-log" : "training-log");
    return findFormat("training-log");
}

const FormatInfo* detectText(std::string_view head, bool console) {
    const std::string_view all = head;
    std::vector<std::string_view> lines;
    while (!head.empty() && lines.size() < 40) {
        const std::size_t nl = head.find('\n');
        // The last line of the head may be cut short; only judge complete lines.
        if (nl == std::string_view::npos && lines.size() > 0) break;
        std::string_view line = head.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!trim(line).empty()) lines.push_back(line);
        if (nl == std::string_view::npos) break;
        head.remove_prefix(nl + 1);
    }
    if (lines.empty()) return nullptr;
    const std::string_view first = lines.front();
    if (startsWith(first, "kind,") || first == "kind") return findFormat("faultline-events");
    if (startsWith(first, "JobID") || (contains(first, "JobID") && contains(first, "State")))
        return findFormat("sacct");
    // sacct --noheader: rows of jobs (the importer reads them, or says which --sacct-fields would).
    if (headerlessSacct(lines)) return findFormat("sacct");
    if (const FormatInfo* telemetry = detectTelemetryText(lines)) return telemetry;
    if (ibnetdiscoverRecordIn(lines) && contains(all, "vendid=")) return findFormat("ibnetdiscover");
    if (const FormatInfo* byLines = detectByLineKinds(lines, console)) return byLines;
    for (std::string_view l : lines) {
        const std::string_view t = trim(l);
        if (t.front() == '#') continue;
        if (startsWith(t, "SwitchName=") || startsWith(t, "BlockName=")) return findFormat("slurm-topology");
        break;
    }
    if (console && consoleLineIn(all)) return findFormat("training-log");
    return nullptr;
}

// `head` with each run of zero bytes made a line break; "" when it holds nothing else.
std::string textAroundZeroRuns(std::string_view head) {
    std::string out;
    out.reserve(head.size());
    for (std::size_t i = 0; i < head.size();) {
        if (head[i] != '\0') {
            out += head[i++];
            continue;
        }
        while (i < head.size() && head[i] == '\0') ++i;
        if (!out.empty() && out.back() != '\n') out += '\n';
    }
    return out.find_first_not_of('\n') == std::string::npos ? std::string() : out;
}

// Control bytes other than a text's own (tabs, line ends, a terminal's colour escapes) in more
// than one byte in a hundred: an executable, a database, an archive, not a log.
bool looksBinary(std::string_view text) {
    std::size_t control = 0;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1b) || c == 0x7f) ++control;
    }
    return control * 100 > text.size();
}

}  // namespace

namespace {

// The format of `path` from its first kHead bytes (all of it when shorter).
const FormatInfo* detectFormatOfHead(const std::string& path, std::string_view head) {
    const std::string_view t = trim(head);
    if (t.empty()) return nullptr;
    if (t.front() == '{' || t.front() == '[') {
        // "[" also starts dmesg lines ("[Tue Jan 21 ...]", "[  227.99]"): fall through to text.
        if (const FormatInfo* json = detectJson(t)) return json;
        // JSON lines of a log collector or container runtime: read as the lines they hold.
        if (t.front() == '{' && !parseLogRecord(t.substr(0, t.find('\n')))) return nullptr;
    }
    // Zero bytes in a log are the block a hard-reset node left unwritten: the text around
    // them is judged (each run as a line break, as LineReader reads it). Anything else that
    // holds zero bytes is binary, no text format.
    const bool zeros = head.find('\0') != std::string::npos;
    const std::string text = zeros ? textAroundZeroRuns(head) : std::string();
    if (zeros && (text.empty() || looksBinary(text))) return nullptr;
    const std::string_view judged = zeros ? std::string_view(text) : head;
    // A folder's README and licence quote log lines; they are documentation, not a job's console.
    const std::string name = path.substr(path.find_last_of('/') + 1);
    const bool documentation = startsWith(name, "README") || startsWith(name, "LICENSE") || startsWith(name, "LICENCE") ||
                               (name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0);
    if (const FormatInfo* format = detectText(judged, !documentation)) return format;
    // Only a head that is all text and was cut short may have a console line further on.
    if (!documentation && head.size() >= kHead && consoleLineAfterHead(path)) return findFormat("training-log");
    return nullptr;
}

const FormatInfo* detectFormatOf(const std::string& path) {
    // A pickle says so in its first two bytes: a job's thousands of Flight Recorder dumps
    // are not each read up to a megabyte here before the importer reads them again (a
    // quarter of the CPU time of importing 1,024 dumps).
    if (looksLikePickle(readHead(path, 2))) return findFormat("flight-recorder");
    return detectFormatOfHead(path, readHead(path, kHead));
}

// A detector's parser met a date no run can hold: the file is named.
template <typename Detect>
const FormatInfo* namingTheFile(const std::string& path, const Detect& detect) {
    try {
        return detect();
    } catch (const TimeOutOfRange& e) {
        throw Error(path + ": " + e.what());
    }
}

}  // namespace

const FormatInfo* detectFormat(const std::string& path) {
    return namingTheFile(path, [&] { return detectFormatOf(path); });
}

const FormatInfo* detectFormatOfPlainFile(const std::string& path, std::string_view data) {
    if (looksLikePickle(data)) return findFormat("flight-recorder");
    // A megabyte or more (the text detectors look past the head, in the file), or text after
    // a byte order mark (InputFile drops or converts it): judged as read from the file.
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(data[i]); };
    const bool mark = data.size() >= 2 && ((b(0) == 0xFF && b(1) == 0xFE) || (b(0) == 0xFE && b(1) == 0xFF) ||
                                          (data.size() >= 3 && b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF));
    if (data.size() >= kHead || mark) return detectFormat(path);
    return namingTheFile(path, [&] { return detectFormatOfHead(path, data); });
}

}  // namespace faultline
