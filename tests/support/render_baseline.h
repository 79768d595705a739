#pragma once
// A rendered picture against a committed one, with a tolerance for what differs between
// rasterisers (llvmpipe's versions, font hinting): a pixel counts as differing only past a
// channel difference of 40, and a picture matches while at most 0.5% of its pixels differ and
// the mean difference stays under 1.5 of 255. To accept a deliberate change, run the test with
// FAULTLINE_UPDATE_BASELINES=1 and commit the new PNG; FAULTLINE_TEST_SHOTS=DIR keeps a copy
// of every picture drawn.
#include <QImage>
#include <QString>

namespace faultline::test {

struct ImageDifference {
    double differingShare = 0;  // share of pixels off by more than the pixel tolerance
    double meanAbsolute = 0;    // mean absolute difference per channel, 0-255
};

ImageDifference compareImages(const QImage& a, const QImage& b);

// Compares `image` with `folder`/`name`.png (or writes it, with FAULTLINE_UPDATE_BASELINES
// set); on a mismatch the picture drawn is saved beside the temporary folder's NAME.actual.png.
void expectMatchesBaseline(const QImage& image, const QString& folder, const QString& name);

}  // namespace faultline::test
