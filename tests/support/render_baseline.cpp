#include "render_baseline.h"

#include <QColor>
#include <QDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace faultline::test {

namespace {
constexpr int kPixelTolerance = 40;
constexpr double kDifferingShare = 0.005;
constexpr double kMeanAbsolute = 1.5;
}  // namespace

ImageDifference compareImages(const QImage& a, const QImage& b) {
    ImageDifference d;
    long differing = 0;
    double total = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
            const int dr = std::abs(p.red() - q.red()), dg = std::abs(p.green() - q.green()), db = std::abs(p.blue() - q.blue());
            total += dr + dg + db;
            differing += std::max({dr, dg, db}) > kPixelTolerance;
        }
    const double pixels = static_cast<double>(a.width()) * a.height();
    d.differingShare = static_cast<double>(differing) / pixels;
    d.meanAbsolute = total / (3 * pixels);
    return d;
}

void expectMatchesBaseline(const QImage& drawn, const QString& folder, const QString& name) {
    const QImage image = drawn.convertToFormat(QImage::Format_RGB32);
    const QString path = folder + "/" + name + ".png";
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) image.save(shots + "/" + name + ".png");
    if (qEnvironmentVariableIsSet("FAULTLINE_UPDATE_BASELINES")) {
        QDir().mkpath(folder);
        ASSERT_TRUE(image.save(path)) << path.toStdString();
        return;
    }
    const QImage baseline = QImage(path).convertToFormat(QImage::Format_RGB32);
    ASSERT_FALSE(baseline.isNull()) << "no baseline at " << path.toStdString() << "; create it with FAULTLINE_UPDATE_BASELINES=1";
    ASSERT_EQ(image.size(), baseline.size()) << name.toStdString();
    const ImageDifference d = compareImages(image, baseline);
    const QString actual = QDir::temp().filePath(name + ".actual.png");
    if (d.differingShare > kDifferingShare || d.meanAbsolute > kMeanAbsolute) image.save(actual);
    EXPECT_LE(d.differingShare, kDifferingShare) << name.toStdString() << ": mean difference " << d.meanAbsolute
                                                  << "; the picture drawn is in " << actual.toStdString();
    EXPECT_LE(d.meanAbsolute, kMeanAbsolute) << name.toStdString();
}

}  // namespace faultline::test
