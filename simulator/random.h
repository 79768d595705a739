#pragma once
// A seeded random source whose draws are the same on every platform and standard library
// (std:: distributions are not), so a simulated run is reproducible from its seed alone.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace faultline {

class Random {
public:
    explicit Random(std::uint64_t seed) : m_engine(seed) {}

    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }  // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    std::int64_t index(std::int64_t n) { return static_cast<std::int64_t>(uniform() * static_cast<double>(n)); }
    double exponential(double rate) { return -std::log1p(-uniform()) / rate; }
    double normal() {
        // Box-Muller; 1 - u keeps the logarithm finite.
        const double u = 1.0 - uniform();
        const double v = uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
    }
    double logNormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

private:
    std::mt19937_64 m_engine;  // its output sequence is fixed by the standard
};

}  // namespace faultline
