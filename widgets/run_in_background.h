#pragma once
// Work off the GUI thread, the one way every window does it: `work` runs on a worker thread;
// `done` gets its value, or the error message of what it threw, back on the GUI thread while
// `owner` lives. Error messages are read as UTF-8 (what every Faultline error is written in).
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <type_traits>
#include <utility>
#include <variant>

namespace faultline {

// What `Work` returns; work that returns nothing gives std::monostate.
template <typename Work>
using BackgroundValue = std::conditional_t<std::is_void_v<std::invoke_result_t<Work>>, std::monostate, std::invoke_result_t<Work>>;

// The value of the work, or the message of what it threw.
template <typename T>
using BackgroundResult = std::variant<T, QString>;

inline QString errorText(const std::exception& e) { return QString::fromUtf8(e.what()); }

// The error of a result, or an empty string when the work succeeded.
template <typename T>
QString errorOf(const BackgroundResult<T>& result) {
    const QString* error = std::get_if<1>(&result);
    return error ? *error : QString();
}

template <typename Work, typename Done>
void runInBackground(QObject* owner, Work work, Done done) {
    using T = BackgroundValue<Work>;
    using Result = BackgroundResult<T>;
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, done = std::move(done)]() mutable {
        Result result = watcher->result();
        watcher->deleteLater();
        done(std::move(result));
    });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)]() mutable -> Result {
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<Work>>) {
                work();
                return Result(std::in_place_index<0>);
            } else {
                return Result(std::in_place_index<0>, work());
            }
        } catch (const std::exception& e) {
            return Result(std::in_place_index<1>, errorText(e));
        }
    }));
}

}  // namespace faultline
