#pragma once
// One HTTP POST of a form through libcurl: what the Prometheus client sends. TLS peers are
// verified (against the system's CAs, or --ca-file's); a transfer in progress stops when
// `cancel` is set.
#include "remote/prometheus_credentials.h"

#include <atomic>
#include <string>

namespace faultline {

struct HttpRequest {
    std::string url;
    std::string form;            // application/x-www-form-urlencoded body
    double timeoutSeconds = 60;  // the whole transfer; 0: no limit
    std::string caFile;          // empty: the system's certificate authorities
    const PrometheusCredentials* credentials = nullptr;
};

struct HttpResponse {
    long status = 0;            // 0 when no response came
    std::string body;
    std::string failure;        // libcurl's words when no response came
    bool timedOut = false;
    bool unreachable = false;   // the connection was refused or the host not found
    bool cancelled = false;
    bool brokenOff = false;     // the connection broke or closed without an answer
};

HttpResponse httpPost(const HttpRequest& request, const std::atomic<bool>* cancel);

// "a b&c" -> "a%20b%26c"
std::string formEscape(const std::string& text);

}  // namespace faultline
