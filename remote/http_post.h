#pragma once
// One HTTP POST through libcurl: what the Prometheus client sends (a form, or a remote read). TLS peers are
// verified (against the system's CAs, or --ca-file's); a transfer in progress stops when
// `cancel` is set.
#include "remote/prometheus_credentials.h"

#include <atomic>
#include <string>
#include <vector>

namespace faultline {

struct HttpRequest {
    std::string url;
    std::string body;
    std::string contentType = "application/x-www-form-urlencoded";
    std::vector<std::string> headers;  // more, "Name: value"
    std::string contentEncoding;       // of the body, e.g. "snappy"; empty: none
    bool rawAnswer = false;            // the answer's own encoding left to the caller (a remote read's snappy)
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
