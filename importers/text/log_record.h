#pragma once
// One line a log collector or a container runtime wrote around the line a program printed,
// as JSON: the message, and the time and host the record gives it. Read by what the record
// holds, not by which tool wrote it: a message field ("@message", "message", "MESSAGE", "log",
// "msg", ...) beside a time field ("@timestamp", "time", "timestamp", "__REALTIME_TIMESTAMP",
// ...) and perhaps a host ("host", "hostname", "_HOSTNAME", {"host": {"name": ...}}):
//   CloudWatch / Logstash / Loki   {"@timestamp":"2024-06-03T07:12:40.118Z","@message":"..."}
//   Docker json-file               {"log":"...\n","stream":"stderr","time":"2024-02-19T22:03:11.4Z"}
//   journalctl -o json             {"MESSAGE":"...","__REALTIME_TIMESTAMP":"1717398760118000","_HOSTNAME":"n7"}
//   Fluent Bit, Vector, GCP        {"message":"...","timestamp":...}, {"textPayload":"..."}
#include "importers/events/epoch.h"

#include <optional>
#include <string>
#include <string_view>

namespace faultline {

struct LogRecord {
    std::string message;          // as the program printed it: may hold several lines
    std::optional<EpochNs> time;  // the record's time, when it gives one
    std::string host;             // the record's host, when it names one
    // The runtime split a long line over several records and this is not the last of them
    // (Docker's json-file writes the newline only with a line's last part).
    bool partial = false;
};

// `line` as a collector's record; nullopt when it is no JSON object with a message field.
std::optional<LogRecord> parseLogRecord(std::string_view line);

}  // namespace faultline
