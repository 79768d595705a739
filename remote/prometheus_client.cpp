#include "remote/prometheus_client.h"

#include "importers/events/import_context.h"
#include "model/error.h"
#include "remote/prometheus_query_plan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>

namespace faultline {

namespace {

// What the server said went wrong: the API's {"status":"error","error":"..."} when the body
// is one, else the start of the body (a proxy's page).
std::string serverSays(const std::string& body) {
    try {
        const nlohmann::json j = nlohmann::json::parse(body);
        if (j.is_object() && j.contains("error") && j["error"].is_string()) return j["error"].get<std::string>();
    } catch (const nlohmann::json::exception&) {
    }
    std::string text = body.substr(0, 200);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text.empty() ? std::string("no explanation") : text;
}

bool worthRetrying(const HttpResponse& r) {
    return r.timedOut || r.unreachable || r.status >= 500 || r.status == 429 || r.brokenOff;
}

}  // namespace

PrometheusClient::PrometheusClient(PrometheusServer server, RetryPolicy retry, Sleeper sleeper, HttpFn http)
    : m_server(std::move(server)), m_retry(retry), m_sleep(std::move(sleeper)), m_http(std::move(http)) {
    if (!m_http) m_http = httpPost;
    if (!m_sleep)
        m_sleep = [this](std::chrono::milliseconds wait) {
            const auto until = std::chrono::steady_clock::now() + wait;
            while (std::chrono::steady_clock::now() < until && !(m_cancel.load() && m_cancel.load()->load()))
                std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - std::chrono::steady_clock::now(), std::chrono::milliseconds(50)));
        };
}

std::string PrometheusClient::queryRange(const std::string& query, EpochNs from, EpochNs to, Nanos step, const std::atomic<bool>* cancel) {
    HttpRequest request;
    request.url = m_server.url + "/api/v1/query_range";
    request.body = "query=" + formEscape(query) + "&start=" + apiSeconds(from) + "&end=" + apiSeconds(to) + "&step=" + apiDuration(step);
    return *post(std::move(request), m_server.url + ": query " + query, {}, cancel);
}

std::optional<std::string> PrometheusClient::remoteRead(const std::string& body, const std::string& what, const std::atomic<bool>* cancel) {
    HttpRequest request;
    request.url = m_server.url + "/api/v1/read";
    request.body = body;
    request.contentType = "application/x-protobuf";
    request.contentEncoding = "snappy";
    request.headers = {"X-Prometheus-Remote-Read-Version: 0.1.0"};
    request.rawAnswer = true;
    return post(std::move(request), m_server.url + ": remote read of " + what, {404, 405, 415, 501}, cancel);
}

std::optional<std::string> PrometheusClient::post(HttpRequest request, const std::string& where, const std::vector<long>& unserved,
                                                  const std::atomic<bool>* cancel) {
    m_cancel = cancel;
    request.timeoutSeconds = m_server.timeoutSeconds;
    request.caFile = m_server.caFile;
    request.credentials = &m_server.credentials;
    std::chrono::milliseconds delay = m_retry.firstDelay;
    for (int attempt = 1;; ++attempt) {
        if (cancel && cancel->load()) throw ImportCancelled();
        HttpResponse r = m_http(request, cancel);
        if (r.cancelled || (cancel && cancel->load())) throw ImportCancelled();
        if (r.status == 200) return std::move(r.body);
        if (std::find(unserved.begin(), unserved.end(), r.status) != unserved.end()) return std::nullopt;
        if (r.status == 401 || r.status == 403)
            throw Error(m_server.url + ": the server refused " +
                        (m_server.credentials.kind == PrometheusCredentials::Kind::None ? std::string("a request without credentials")
                                                                                        : "the credentials from " + m_server.credentials.origin) +
                        " (HTTP " + std::to_string(r.status) + ")");
        if (!worthRetrying(r) || attempt >= m_retry.attempts) {
            const std::string tries = attempt > 1 ? " (" + std::to_string(attempt) + " attempts)" : "";
            if (r.unreachable) throw Error(m_server.url + ": cannot reach the Prometheus server: " + r.failure + tries);
            if (r.timedOut)
                throw Error(where + ": no answer within --timeout " + apiDuration(static_cast<Nanos>(m_server.timeoutSeconds * 1e9)) + tries);
            if (r.status == 0) throw Error(m_server.url + ": " + r.failure + tries);
            throw Error(where + ": HTTP " + std::to_string(r.status) + ": " + serverSays(r.body) + tries);
        }
        ++m_retries;
        m_sleep(delay);
        delay = std::min(delay * 2, m_retry.longestDelay);
    }
}

}  // namespace faultline
