#include "remote/http_post.h"

#include "model/error.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace faultline {

namespace {

void initialiseCurl() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw Error("libcurl could not be initialised");
    });
}

std::size_t appendBody(char* data, std::size_t size, std::size_t count, void* target) {
    static_cast<std::string*>(target)->append(data, size * count);
    return size * count;
}

int transferProgress(void* cancel, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto* flag = static_cast<const std::atomic<bool>*>(cancel);
    return flag && flag->load(std::memory_order_relaxed) ? 1 : 0;  // non-zero aborts the transfer
}

struct CurlDeleter {
    void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

std::string formEscape(const std::string& text) {
    std::string out;
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (unsigned char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

HttpResponse httpPost(const HttpRequest& request, const std::atomic<bool>* cancel) {
    initialiseCurl();
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl) throw Error("libcurl could not start a transfer");
    HttpResponse response;
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // worker threads: no SIGALRM for timeouts
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // a redirect would carry the credentials elsewhere
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    if (request.rawAnswer) curl_easy_setopt(c, CURLOPT_HTTP_CONTENT_DECODING, 0L);
    else curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode (gzip)
    if (!request.caFile.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, request.caFile.c_str());
    if (request.timeoutSeconds > 0) curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeoutSeconds * 1000));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.timeoutSeconds > 0 && request.timeoutSeconds < 30 ? request.timeoutSeconds * 1000 : 30'000));
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, transferProgress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(cancel));
    const std::string contentType = "Content-Type: " + request.contentType;
    std::unique_ptr<curl_slist, SlistDeleter> headers(curl_slist_append(nullptr, contentType.c_str()));
    const std::string contentEncoding = "Content-Encoding: " + request.contentEncoding;
    if (!request.contentEncoding.empty()) headers.reset(curl_slist_append(headers.release(), contentEncoding.c_str()));
    for (const std::string& h : request.headers) headers.reset(curl_slist_append(headers.release(), h.c_str()));
    std::string bearer;
    if (const PrometheusCredentials* cred = request.credentials) {
        if (cred->kind == PrometheusCredentials::Kind::Bearer) {
            bearer = "Authorization: Bearer " + cred->secret;
            headers.reset(curl_slist_append(headers.release(), bearer.c_str()));
        } else if (cred->kind == PrometheusCredentials::Kind::Basic) {
            curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
            curl_easy_setopt(c, CURLOPT_USERPWD, cred->secret.c_str());
        }
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    const CURLcode code = curl_easy_perform(c);
    if (code != CURLE_OK) {
        response.failure = curl_easy_strerror(code);
        response.timedOut = code == CURLE_OPERATION_TIMEDOUT;
        response.unreachable = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST;
        response.cancelled = code == CURLE_ABORTED_BY_CALLBACK;
        response.brokenOff = code == CURLE_GOT_NOTHING || code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_PARTIAL_FILE;
        response.body.clear();
        return response;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

}  // namespace faultline
