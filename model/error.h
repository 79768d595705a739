#pragma once
#include <stdexcept>
#include <string>

namespace faultline {

// The one error type the core throws: its message is written for the user and names the
// file (and line or offset) and what was expected.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace faultline
