#pragma once
// The faultline app run as a user runs it from a shell (FAULTLINE_APP, the built binary):
// its exit code and what it wrote to stderr. For the option tests (--screenshot, --record).
#include <QProcess>
#include <QString>
#include <QStringList>

#include <utility>

namespace faultline::test {

struct AppResult {
    int exitCode = -1;  // -1: it did not finish within two minutes
    QString errors;
};

inline AppResult runApp(const QStringList& args) {
    QProcess app;
    app.start(FAULTLINE_APP, args);
    AppResult r;
    if (!app.waitForFinished(120'000)) {
        app.kill();
        return r;
    }
    r.exitCode = app.exitCode();
    r.errors = QString::fromLocal8Bit(app.readAllStandardError());
    return r;
}

// Its exit code alone, with what it wrote to stderr in `errors`.
inline int runApp(const QStringList& args, QString* errors) {
    AppResult r = runApp(args);
    *errors = std::move(r.errors);
    return r.exitCode;
}

}  // namespace faultline::test
