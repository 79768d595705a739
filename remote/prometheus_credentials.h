#pragma once
// How Faultline logs in to a Prometheus server: a bearer token or a user and password, read
// from a file or the environment, never from the command line (where `ps` and the shell's
// history would show them). The secret is never printed, stored in the run, or put in an
// error message; messages name where it came from instead.
#include <functional>
#include <string>

namespace faultline {

struct PrometheusCredentials {
    enum class Kind { None, Bearer, Basic };
    Kind kind = Kind::None;
    std::string secret;  // the token, or "user:password"
    std::string origin;  // "--token-file /run/secrets/prom", "FAULTLINE_PROMETHEUS_TOKEN"
};

inline constexpr const char* kTokenVariable = "FAULTLINE_PROMETHEUS_TOKEN";
inline constexpr const char* kBasicAuthVariable = "FAULTLINE_PROMETHEUS_BASIC_AUTH";  // "user:password"

using EnvironmentFn = std::function<const char*(const char*)>;

// A file given wins over the environment; a token over a user and password. A token file
// holds the token (surrounding white space dropped); a basic-auth file one line
// "user:password". Error naming the file (never its content) when it cannot be read or
// holds no such thing.
PrometheusCredentials readPrometheusCredentials(const std::string& tokenFile, const std::string& basicAuthFile, const EnvironmentFn& environment);

// The URL with any user and password taken out, as the run keeps it and messages say it.
std::string urlWithoutCredentials(const std::string& url);

// Error when the URL is not an http(s) URL, or names a user or password (they belong in a
// file or the environment); the URL without a trailing '/' otherwise.
std::string checkedServerUrl(const std::string& url);

}  // namespace faultline
