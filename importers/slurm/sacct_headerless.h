#pragma once
// sacct output written with --noheader (`sacct -n -P`, any --delimiter): told by its rows'
// content, a job id first and a job state in one column, and read with sacct's default fields
// when its columns are those; otherwise the message says which --sacct-fields would read it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// What `sacct` lists without --format: the columns of a headerless file shaped like it.
inline constexpr std::string_view kSacctDefaultFields = "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";

// The delimiters a headerless file is tried with (--delimiter takes any string; these are the
// ones seen in the wild), longest first.
const std::vector<std::string_view>& sacctDelimiters();

struct HeaderlessSacct {
    std::string delim;
    std::size_t columns = 0;  // without the empty field after --parsable's trailing delimiter
    bool trailing = false;
    std::size_t state = 0;  // the column holding job states
    bool defaultFields = false;  // the columns are sacct's default ones (kSacctDefaultFields)
    // A field list that reads it: JobID, State, ExitCode and the times named where the content
    // shows them, "-" for columns Faultline does not use.
    std::string fieldsThatRead;
};

// `lines`: the file's first non-empty lines. Every one must split, with one delimiter, into the
// same columns, a job id ("123", "123_4", "123+1", "123.batch") first and a state in one column.
std::optional<HeaderlessSacct> headerlessSacct(const std::vector<std::string_view>& lines);

}  // namespace faultline
