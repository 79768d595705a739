#pragma once
// `faultline --screenshot OUT.png --compare [--at TIME | --step N] [--size WxH] A B`: opens the
// comparison window, puts its clock at that instant of A, saves the window and quits.
#include <QSize>
#include <QString>

#include <optional>

namespace faultline {

class CompareWindow;

struct CompareScreenshotRequest {
    QString out;
    QSize size;
    QString at;                        // A's time since start or UTC time; empty: the start
    std::optional<std::int64_t> step;  // the first time A completed this step, aligned by step
};

void arrangeComparisonScreenshot(CompareWindow& window, const CompareScreenshotRequest& request);

}  // namespace faultline
