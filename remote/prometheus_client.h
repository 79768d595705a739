#pragma once
// A Prometheus server's HTTP API, as Faultline asks it: /api/v1/query_range and the remote
// read /api/v1/read by POST, retried
// with back-off when the server is busy or down for a moment (5xx, 429, a timeout, a refused
// connection), failing at once on what a retry would not change (a bad query, refused
// credentials). Every message names the server's URL without its credentials.
#include "importers/events/epoch.h"
#include "model/time.h"
#include "remote/http_post.h"
#include "remote/prometheus_credentials.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace faultline {

struct PrometheusServer {
    std::string url;  // checkedServerUrl's: no credentials, no trailing '/'
    PrometheusCredentials credentials;
    std::string caFile;
    double timeoutSeconds = 60;  // each request
};

struct RetryPolicy {
    int attempts = 5;                               // the first try included
    std::chrono::milliseconds firstDelay{500};      // then doubled each time
    std::chrono::milliseconds longestDelay{8000};
};

// Waits between attempts; the default sleeps in short steps and returns early on Cancel.
// Tests pass one that records the waits and returns at once.
using Sleeper = std::function<void(std::chrono::milliseconds)>;
// Sends one request; the default is httpPost.
using HttpFn = std::function<HttpResponse(const HttpRequest&, const std::atomic<bool>*)>;

class PrometheusClient {
public:
    explicit PrometheusClient(PrometheusServer server, RetryPolicy retry = {}, Sleeper sleeper = {}, HttpFn http = {});
    PrometheusClient(const PrometheusClient&) = delete;  // the default sleeper watches this client's Cancel
    PrometheusClient& operator=(const PrometheusClient&) = delete;

    // The body of a successful query_range response (status "success"); Error otherwise,
    // ImportCancelled on Cancel. Several threads may ask at once (each request has its own
    // connection), when the sleeper and the HTTP function given may be called so.
    std::string queryRange(const std::string& query, EpochNs from, EpochNs to, Nanos step, const std::atomic<bool>* cancel = nullptr);
    // The snappy-compressed ReadResponse of a remote read (prometheus_remote_read.h); unset when
    // the server does not serve remote reads (404, 405, 415, 501: a proxy, another database).
    std::optional<std::string> remoteRead(const std::string& request, const std::string& what, const std::atomic<bool>* cancel = nullptr);

    const PrometheusServer& server() const { return m_server; }
    int retries() const { return m_retries.load(); }  // attempts beyond the first, over all queries

private:
    // Sends `request` until it is answered 200 (retrying what is worth it, with back-off);
    // unset for a status in `unserved`.
    std::optional<std::string> post(HttpRequest request, const std::string& where, const std::vector<long>& unserved, const std::atomic<bool>* cancel);

    PrometheusServer m_server;
    RetryPolicy m_retry;
    Sleeper m_sleep;
    HttpFn m_http;
    std::atomic<const std::atomic<bool>*> m_cancel = nullptr;  // queries of one pull share one Cancel
    std::atomic<int> m_retries = 0;
};

}  // namespace faultline
