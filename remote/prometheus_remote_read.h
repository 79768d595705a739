#pragma once
// Prometheus' remote read API (POST /api/v1/read: a snappy-compressed protobuf ReadRequest,
// answered by a ReadResponse of the samples as stored). A pull asks it first: the server only
// copies stored samples out, where a query_range answer has it evaluate the query at every
// step and write each sample as JSON text, several times the work. A server that does not
// serve it (a proxy in front, another time-series database) is asked with query_range.
#include "importers/events/import_report.h"
#include "importers/events/telemetry_accumulator.h"
#include "remote/prometheus_matrix.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

struct LabelMatch {
    enum class Kind { Equal = 0, NotEqual = 1, Regex = 2, NotRegex = 3 };
    Kind kind = Kind::Equal;
    std::string name, value;
};

// A ReadRequest of one query for the raw samples of [from, to] (both included, to the
// millisecond), snappy-compressed as the API takes it.
std::string remoteReadRequest(const std::vector<LabelMatch>& matchers, EpochNs from, EpochNs to);

// Adds the samples of a snappy-compressed ReadResponse to `telemetry`, as readMatrixResponse
// does a query_range answer. Error naming `where` and the byte where it stopped when the body
// is not one.
MatrixCounts readRemoteReadResponse(const std::string& body, const std::string& where, ImportedTelemetry& telemetry, FileReport& report,
                                    std::set<std::string>& hosts);

// Snappy's block format (github.com/google/snappy, format_description.txt): the bytes a
// compressed block holds; Error naming `where` and the offset of what is broken.
std::string snappyUncompress(std::string_view block, const std::string& where);
// A valid snappy block of `bytes` stored as literals: what a small request needs.
std::string snappyStore(std::string_view bytes);

}  // namespace faultline
