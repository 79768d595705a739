// Credentials come from a file or the environment, never the command line, and no message
// ever holds the secret.
#include "model/error.h"
#include "remote/prometheus_credentials.h"

#include "test_runs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

namespace faultline {
namespace {

using Kind = PrometheusCredentials::Kind;

EnvironmentFn environment(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> const char* {
        const auto it = values.find(name);
        return it == values.end() ? nullptr : it->second.c_str();
    };
}

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(PrometheusCredentials, TokenFileWinsOverTheEnvironment) {
    test::ScratchDir dir;
    std::ofstream(dir.file("token")) << "  s3cret-token\n";
    const auto c = readPrometheusCredentials(dir.file("token"), "", environment({{kTokenVariable, "from-env"}}));
    EXPECT_EQ(c.kind, Kind::Bearer);
    EXPECT_EQ(c.secret, "s3cret-token");
    EXPECT_EQ(c.origin, "--token-file " + dir.file("token"));
}

TEST(PrometheusCredentials, EnvironmentGivesATokenOrAUserAndPassword) {
    EXPECT_EQ(readPrometheusCredentials("", "", environment({{kTokenVariable, "abc"}})).kind, Kind::Bearer);
    const auto basic = readPrometheusCredentials("", "", environment({{kBasicAuthVariable, "alice:pw"}}));
    EXPECT_EQ(basic.kind, Kind::Basic);
    EXPECT_EQ(basic.secret, "alice:pw");
    EXPECT_EQ(basic.origin, kBasicAuthVariable);
    EXPECT_EQ(readPrometheusCredentials("", "", environment({})).kind, Kind::None);
}

TEST(PrometheusCredentials, ABadFileIsNamedAndItsContentNeverShown) {
    test::ScratchDir dir;
    std::ofstream(dir.file("basic")) << "no-colon-password-hunter2\n";
    const std::string message = messageOf([&] { readPrometheusCredentials("", dir.file("basic"), environment({})); });
    EXPECT_NE(message.find(dir.file("basic")), std::string::npos) << message;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
    EXPECT_NE(messageOf([&] { readPrometheusCredentials(dir.file("missing"), "", environment({})); }).find("missing"), std::string::npos);
}

TEST(PrometheusCredentials, TheUrlMayNotCarryAPasswordAndMessagesNeverRepeatIt) {
    const std::string message = messageOf([] { checkedServerUrl("https://alice:hunter2@prom.example:9090"); });
    EXPECT_NE(message.find("--basic-auth-file"), std::string::npos) << message;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
    EXPECT_EQ(urlWithoutCredentials("https://alice:hunter2@prom.example:9090/x"), "https://prom.example:9090/x");
    EXPECT_EQ(checkedServerUrl("http://prom:9090/"), "http://prom:9090");
    EXPECT_THROW(checkedServerUrl("prom:9090"), Error);
}

}  // namespace
}  // namespace faultline
