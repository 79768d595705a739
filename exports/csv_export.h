#pragma once
// The run's tables as CSV (RFC 4180: comma-separated, fields with commas, quotes or line
// breaks quoted, quotes doubled), for spreadsheets and notebooks. `faultline-cli incidents
// --csv`, `summary --csv`, `stragglers --csv` and the app's File > Export Data write these.
// Times are UTC wall times (ISO 8601) plus seconds since the run's start; durations seconds.
#include "analysis/goodput.h"
#include "analysis/incidents.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "model/incident_notes.h"

#include <map>
#include <string>
#include <vector>

namespace faultline {

// One field, quoted when it has to be.
std::string csvField(const std::string& text);
// `text` made safe to open in a spreadsheet: a cell starting with =, +, -, @, tab or CR that is
// not a number gets a leading quote, so it is shown, never run as a formula (OWASP).
std::string neutraliseFormula(const std::string& text);

// One row per incident, with what the reviewer wrote about it (notes keyed by the
// incident's first symptom, as IncidentNotesStore keeps them).
std::string incidentsToCsv(const std::vector<Incident>& incidents, const RunInfo& info,
                           const std::map<Nanos, IncidentNote>& notes = {});

// The goodput ledger: one row per day of the run.
std::string goodputLedgerToCsv(const GoodputLedger& ledger, const RunInfo& info);

// One row per rank either analysis has a figure for: the waiting it caused in traced
// collectives and its step time against the median rank; most waiting caused first.
std::string stragglersToCsv(const StragglerReport& collectives, const StepTimeReport& steps, const Run& run);

// incidents.csv, goodput_per_day.csv and stragglers.csv in `dir` (made if missing).
// The files writeCsvTables writes into its folder.
inline constexpr const char* kCsvTableFiles[] = {"incidents.csv", "goodput_per_day.csv", "stragglers.csv"};
// Throws Error when the tables may not be written into `dir` (model/output_guard.h: never an
// input, never through a link, never over a file that is not a table, unless `force`).
void checkCsvTablesOutput(const std::string& dir, const std::vector<std::string>& inputs, bool force);
void writeCsvTables(const Run& run, const std::map<Nanos, IncidentNote>& notes, const std::string& dir);

// "2024-03-04T15:02:11.250Z"
std::string isoUtc(std::int64_t startEpochNs, Nanos t);

}  // namespace faultline
