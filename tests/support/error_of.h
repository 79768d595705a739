#pragma once
// The message of what a call throws, for tests that check a refusal says what it should.
#include <gtest/gtest.h>

#include <exception>
#include <string>

namespace faultline::test {

// The message of the Error `f` throws; fails the test when it does not throw.
template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return {};
}

}  // namespace faultline::test
