#pragma once
// Slurm host lists: "node[01-16,20]", "ng[30103,30706-30707],login1", "r[1-2]n[1-3]".
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// Expands a host list, keeping zero padding ("node[01-03]" -> node01 node02 node03). Throws
// Error (without a file name: the caller adds where it came from) on an unbalanced bracket or
// a range that is not two numbers, or one of more than 100,000 hosts.
std::vector<std::string> expandHostList(std::string_view list);

// Host names compared the way people count: node2 before node10.
bool naturalLess(std::string_view a, std::string_view b);

}  // namespace faultline
