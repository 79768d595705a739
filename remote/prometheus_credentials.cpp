#include "remote/prometheus_credentials.h"

#include "model/error.h"

#include <fstream>
#include <sstream>

namespace faultline {

namespace {

std::string trimmed(const std::string& text) {
    const std::size_t b = text.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return text.substr(b, text.find_last_not_of(" \t\r\n") - b + 1);
}

std::string readSecretFile(const std::string& path, const char* option) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot read the " + std::string(option) + " file");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string secret = trimmed(text.str());
    if (secret.empty()) throw Error(path + ": the " + std::string(option) + " file is empty");
    if (secret.find_first_of("\r\n") != std::string::npos) throw Error(path + ": the " + std::string(option) + " file holds more than one line");
    return secret;
}

void checkBasic(const std::string& secret, const std::string& origin) {
    if (secret.find(':') == std::string::npos || secret.front() == ':')
        throw Error(origin + ": expected one line \"user:password\"");
}

// Where the authority of an http(s) URL lies: [begin, end) after "scheme://".
std::pair<std::size_t, std::size_t> authority(const std::string& url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos) return {std::string::npos, std::string::npos};
    const std::size_t begin = scheme + 3;
    const std::size_t end = url.find_first_of("/?#", begin);
    return {begin, end == std::string::npos ? url.size() : end};
}

}  // namespace

PrometheusCredentials readPrometheusCredentials(const std::string& tokenFile, const std::string& basicAuthFile, const EnvironmentFn& environment) {
    using Kind = PrometheusCredentials::Kind;
    if (!tokenFile.empty() && !basicAuthFile.empty()) throw Error("give --token-file or --basic-auth-file, not both");
    if (!tokenFile.empty()) return {Kind::Bearer, readSecretFile(tokenFile, "--token-file"), "--token-file " + tokenFile};
    if (!basicAuthFile.empty()) {
        PrometheusCredentials c{Kind::Basic, readSecretFile(basicAuthFile, "--basic-auth-file"), "--basic-auth-file " + basicAuthFile};
        checkBasic(c.secret, basicAuthFile);
        return c;
    }
    if (const char* token = environment(kTokenVariable); token && *token) {
        const std::string secret = trimmed(token);
        if (!secret.empty()) return {Kind::Bearer, secret, kTokenVariable};
    }
    if (const char* basic = environment(kBasicAuthVariable); basic && *basic) {
        PrometheusCredentials c{Kind::Basic, trimmed(basic), kBasicAuthVariable};
        checkBasic(c.secret, kBasicAuthVariable);
        return c;
    }
    return {};
}

std::string urlWithoutCredentials(const std::string& url) {
    const auto [begin, end] = authority(url);
    if (begin == std::string::npos) return url;
    const std::size_t at = url.rfind('@', end - 1);
    if (at == std::string::npos || at < begin) return url;
    return url.substr(0, begin) + url.substr(at + 1);
}

std::string checkedServerUrl(const std::string& url) {
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
        throw Error("\"" + urlWithoutCredentials(url) + "\" is not a Prometheus server's URL (http://HOST:9090 or https://...)");
    const auto [begin, end] = authority(url);
    if (begin == end) throw Error("\"" + url + "\" names no host");
    if (url.find('@', begin) < end)
        throw Error(urlWithoutCredentials(url) + ": put the user and password in --basic-auth-file or " + std::string(kBasicAuthVariable) +
                    ", not in the URL (the command line is visible to every user of the machine)");
    if (url.find_first_of("?#", begin) != std::string::npos) throw Error(url + ": the server's URL takes no query (?...) or fragment (#...)");
    std::string out = url;
    while (out.size() > end && out.back() == '/') out.pop_back();
    return out;
}

}  // namespace faultline
