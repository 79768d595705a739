// Slurm `sacct --parsable` output with a header, any delimiter ("|", "|#", "☃", ...).
// A job's own line (JobID without a ".step" suffix) describes it; when a capture holds only
// its steps (sacct -j JOB.0, or filtered output), the steps together stand for the job.
#include "importers/slurm/readers.h"
#include "importers/slurm/sacct_headerless.h"
#include "importers/text/hostlist.h"
#include "importers/text/line_reader.h"
#include "importers/slurm/slurm_job.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace faultline {

namespace {

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The delimiter is whatever separates the first two column names of the header.
std::string delimiterOf(std::string_view header) {
    std::size_t i = 0;
    while (i < header.size() && isNameChar(header[i])) ++i;
    std::size_t j = i;
    while (j < header.size() && !isNameChar(header[j])) ++j;
    return std::string(header.substr(i, j - i));
}

struct Columns {
    int jobId = -1, state = -1, start = -1, end = -1, nodes = -1, name = -1;
    int submit = -1, exitCode = -1, reason = -1, restarts = -1, tres = -1, submitLine = -1;
    std::size_t count = 0;
};

EpochNs sacctTime(std::string_view s) {
    // "Unknown" / "None" are how sacct says "not yet".
    const auto t = parseIsoTime(trim(s));
    return t ? *t : 0;
}

struct PendingJob {
    ImportedJob job;
    bool fromJobLine = false;
};

// Steps stand for their job: it spans them all, ran on all their nodes, and ended badly if
// any step did.
void mergeStep(ImportedJob& job, const ImportedJob& step) {
    if (step.start > 0 && (job.start == 0 || step.start < job.start)) job.start = step.start;
    if (step.end > job.end) job.end = step.end;
    for (const std::string& n : step.nodes)
        if (std::find(job.nodes.begin(), job.nodes.end(), n) == job.nodes.end()) job.nodes.push_back(n);
    if (!isInterruptingJobState(job.state)) job.state = step.state;
}

// The columns a run's jobs need beyond id and state, where the capture has them.
void readJobDetails(const std::vector<std::string_view>& fields, const Columns& col, ImportedJob& job) {
    auto field = [&](int c) { return c >= 0 ? trim(fields[static_cast<std::size_t>(c)]) : std::string_view(); };
    job.stateText = std::string(field(col.state));
    if (col.submit >= 0) job.submit = sacctTime(field(col.submit));
    job.exitCode = std::string(field(col.exitCode));
    job.reason = std::string(field(col.reason));
    if (job.reason == "None") job.reason.clear();
    if (const auto n = parseInt(field(col.restarts))) job.restarts = static_cast<std::int32_t>(*n);
    job.gpus = gpusInTres(field(col.tres));
    job.dependsOn = dependenciesInSubmitLine(field(col.submitLine));
}

// Without a header the delimiter is the one that cuts the first line into as many fields as
// the user's column list names (plus the empty one `--parsable` leaves after its trailing
// delimiter; `trailing` says so).
std::string delimiterForFieldCount(std::string_view line, std::size_t count, bool& trailing) {
    std::vector<std::string_view> parts;
    for (std::string_view d : sacctDelimiters()) {
        splitBy(line, d, parts);
        trailing = parts.size() == count + 1 && parts.back().empty();
        if (parts.size() == count || trailing) return std::string(d);
    }
    return {};
}

// Where each column is, by its name in the header (sacct takes names in any case:
// --format=jobid,state; so do we).
Columns columnsOf(const std::vector<std::string_view>& names) {
    Columns col;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string n(trim(names[i]));
        for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const int idx = static_cast<int>(i);
        if (n == "jobid") col.jobId = idx;
        else if (n == "jobidraw" && col.jobId < 0) col.jobId = idx;
        else if (n == "state") col.state = idx;
        else if (n == "start") col.start = idx;
        else if (n == "end") col.end = idx;
        else if (n == "nodelist") col.nodes = idx;
        else if (n == "jobname") col.name = idx;
        else if (n == "submit") col.submit = idx;
        else if (n == "exitcode") col.exitCode = idx;
        else if (n == "reason") col.reason = idx;
        else if (n == "restarts") col.restarts = idx;
        else if (n == "alloctres") col.tres = idx;
        else if (n == "submitline") col.submitLine = idx;
    }
    col.count = names.size();
    return col;
}

// How the file's records are laid out: from its header line, or from the user's
// --sacct-fields when it was written with --noheader (then `first` is already a record).
struct Layout {
    std::string delim;
    Columns col;
    bool firstLineIsData = false;
};

// The columns of a file written with --noheader, from the user's list.
Layout givenLayout(std::string_view first, const std::string& fieldList, LineReader& in) {
    Layout layout;
    std::vector<std::string_view> names;
    std::vector<std::string_view> given;
    splitBy(fieldList, ",", given);
    bool trailing = false;
    layout.delim = delimiterForFieldCount(first, given.size(), trailing);
    if (layout.delim.empty())
        in.fail("no delimiter (|, |#, \xe2\x98\x83, ::, comma, ...) cuts this line into the " + std::to_string(given.size()) +
                " columns of the given field list");
    splitBy(fieldList, ",", names);
    if (trailing) names.emplace_back();
    layout.firstLineIsData = true;
    layout.col = columnsOf(names);
    return layout;
}

Layout layoutOf(std::string_view first, const std::string& fieldList, LineReader& in, ImportContext& ctx) {
    if (!fieldList.empty()) {
        Layout layout = givenLayout(first, fieldList, in);
        if (layout.col.jobId < 0 || layout.col.state < 0) in.fail("the --sacct-fields list names no JobID or State column");
        return layout;
    }
    Layout layout;
    layout.delim = delimiterOf(first);
    std::vector<std::string_view> names;
    if (!layout.delim.empty()) {
        splitBy(first, layout.delim, names);
        layout.col = columnsOf(names);
    }
    if (layout.col.jobId >= 0 && layout.col.state >= 0) return layout;
    // No header: rows of jobs read with sacct's default fields when they are shaped like them,
    // else the message names the fields that would read them.
    const auto rows = headerlessSacct({first});
    if (rows && rows->defaultFields) {
        ctx.report.notes.push_back(in.where() + ": no header line; its " + std::to_string(rows->columns) + " columns, separated by \"" + rows->delim +
                                   "\", read as sacct's default fields " + std::string(kSacctDefaultFields) +
                                   " (a job id first, a state sixth, an exit code seventh); pass --sacct-fields if it was written with others");
        return givenLayout(first, std::string(kSacctDefaultFields), in);
    }
    if (rows)
        in.fail("no header line (sacct --noheader): its " + std::to_string(rows->columns) + " columns separated by \"" + rows->delim +
                "\" hold a job id first and a state in column " + std::to_string(rows->state + 1) +
                ", but the others cannot be named; give the list passed to sacct --format, e.g. --sacct-fields " + rows->fieldsThatRead +
                " (- for a column Faultline does not use; name NodeList too to place the jobs on their hosts)");
    // Plain `sacct`: names padded into fixed-width columns, values cut to fit with "+".
    std::vector<std::string_view> words;
    splitBy(trim(first), " ", words);
    if (std::count(words.begin(), words.end(), "JobID") == 1 && std::count(words.begin(), words.end(), "State") == 1)
        in.fail("fixed-width sacct output (as plain sacct prints it, long values cut with \"+\") is not read: write it with sacct --parsable2 "
                "(-P) or --json");
    if (layout.delim.empty())
        in.fail("expected an sacct header line with delimited column names such as JobID|State|Start|End (for output written with --noheader, give its columns with --sacct-fields)");
    in.fail("the sacct header has no JobID or State column (expected e.g. sacct --parsable --format=JobID,JobName,State,Start,End,NodeList; for output written with --noheader, give its columns with --sacct-fields)");
}

// The jobs of the file in the order it first names them, each from its own line or, when
// the capture has none, from its steps; and every step.
class JobCollector {
public:
    void add(ImportedJob job, std::string_view fullId, bool isStep) {
        if (isStep) {
            ImportedJob step = job;
            step.parentId = job.id;
            step.id = std::string(fullId);
            m_steps.push_back(std::move(step));
        }
        // `sacct --duplicates` lists each run of a requeued job under the same JobID: a job
        // line with another start is another incarnation, not a correction.
        auto it = m_index.find(job.id);
        if (it != m_index.end() && !isStep && m_jobs[it->second].fromJobLine && m_jobs[it->second].job.start != job.start) it = m_index.end();
        if (it == m_index.end()) {
            m_index[job.id] = m_jobs.size();
            m_jobs.push_back({std::move(job), !isStep});
            return;
        }
        PendingJob& known = m_jobs[it->second];
        if (!isStep) known = {std::move(job), true};
        else if (!known.fromJobLine) mergeStep(known.job, job);
    }

    void finish(ImportContext& ctx) {
        for (PendingJob& p : m_jobs) addSlurmJob(std::move(p.job), ctx);
        for (ImportedJob& step : m_steps) ctx.events.jobs.push_back(std::move(step));
    }

private:
    std::vector<PendingJob> m_jobs;
    std::vector<ImportedJob> m_steps;
    std::map<std::string, std::size_t> m_index;
};

// One record (one line, or several where a field held line breaks) into the collector; a
// record that does not fit the header is skipped with its line named.
void takeRecord(std::string_view text, std::int64_t lineNo, const Layout& layout, std::vector<std::string_view>& fields,
                JobCollector& jobs, const std::string& path, ImportContext& ctx) {
    const Columns& col = layout.col;
    splitBy(text, layout.delim, fields);
    auto where = [&] { return path + ":" + std::to_string(lineNo) + ": "; };
    if (fields.size() != col.count) {
        ctx.report.skip(where() + "expected " + std::to_string(col.count) + " fields separated by \"" + layout.delim + "\", found " +
                        std::to_string(fields.size()));
        return;
    }
    const std::string_view fullId = trim(fields[static_cast<std::size_t>(col.jobId)]);
    const std::size_t dot = fullId.find('.');
    const bool isStep = dot != std::string_view::npos;
    ImportedJob job;
    job.id = std::string(fullId.substr(0, dot));
    const std::string_view state = trim(fields[static_cast<std::size_t>(col.state)]);
    job.state = std::string(state.substr(0, state.find(' ')));
    try {
        readJobDetails(fields, col, job);
        if (col.start >= 0) job.start = sacctTime(fields[static_cast<std::size_t>(col.start)]);
        if (col.end >= 0) job.end = sacctTime(fields[static_cast<std::size_t>(col.end)]);
    } catch (const TimeOutOfRange& e) {
        throw Error(where() + e.what());
    }
    if (col.name >= 0 && !isStep) job.name = std::string(trim(fields[static_cast<std::size_t>(col.name)]));
    if (col.nodes >= 0) {
        try {
            job.nodes = expandHostList(fields[static_cast<std::size_t>(col.nodes)]);
        } catch (const Error& e) {
            ctx.report.skip(where() + "NodeList: " + e.what());
            return;
        }
    }
    jobs.add(std::move(job), fullId, isStep);
}

}  // namespace

void importSacct(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    std::string_view line;
    while (in.next(line) && trim(line).empty()) {}
    if (trim(line).empty()) throw Error(path + ": empty file (expected an sacct header line such as JobID|State|Start|End)");
    const Layout layout = layoutOf(line, ctx.options.sacctFields, in, ctx);
    std::vector<std::string_view> fields;
    auto fieldCount = [&](std::string_view text) {
        splitBy(text, layout.delim, fields);
        return fields.size();
    };
    JobCollector jobs;
    // A field may hold a line break (a job comment), so a record can span lines: keep
    // joining until it has as many fields as the header.
    std::string record;
    std::int64_t recordLine = 0;
    auto take = [&] { takeRecord(record, recordLine, layout, fields, jobs, path, ctx); };
    const std::string firstData = layout.firstLineIsData ? std::string(line) : std::string();
    bool pendingFirst = layout.firstLineIsData;
    auto nextLine = [&](std::string_view& out) {
        if (!pendingFirst) return in.next(out);
        pendingFirst = false;
        out = firstData;
        return true;
    };
    while (nextLine(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        if (record.empty()) {
            if (trim(line).empty()) continue;
            record.assign(line);
            recordLine = in.lineNumber();
        } else if (fieldCount(line) == layout.col.count) {
            // The pending record never completed; this line stands on its own.
            take();
            record.assign(line);
            recordLine = in.lineNumber();
        } else {
            record += '\n';
            record.append(line);
        }
        if (fieldCount(record) >= layout.col.count) {
            take();
            record.clear();
        }
    }
    if (!record.empty()) take();
    jobs.finish(ctx);
}

}  // namespace faultline
