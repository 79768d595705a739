#include "exports/offscreen_renderer.h"

#include "analysis/blast_radius.h"
#include "model/replay_state.h"
#include "views/fabric/fabric_view.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace faultline {

namespace {
const QColor kCalloutColour(255, 214, 10);  // a failure called out in a frame
}  // namespace

OffscreenRenderer::OffscreenRenderer(std::shared_ptr<const Run> run, QSize size, bool caption)
    : m_run(std::move(run)), m_size(size), m_caption(caption), m_ettr(*m_run) {
    m_window.setAttribute(Qt::WA_DontShowOnScreen);
    m_strip = m_caption ? captionHeight(size.height()) : 0;
    m_window.resize(size.width(), size.height() - m_strip);
    m_view = new FabricView(&m_window);
    m_view->setGeometry(0, 0, size.width(), size.height() - m_strip);
    m_window.show();  // not on screen: gives the view its native window and GL context
    QApplication::processEvents();
    m_view->setRun(m_run);
    // As for --bench-replay: FAULTLINE_BENCH_DETAIL=boxes|rows|hall pins the level of detail.
    m_view->pinDetail(pinnedDetailFromEnvironment());
    // The view fits the cluster at its first paint: have that paint now, so a camera set
    // by the caller (zoomTo an incident's rack) is not undone at the first frame.
    m_view->renderImage();
}

OffscreenRenderer::~OffscreenRenderer() = default;

const ReplayIndex& OffscreenRenderer::replay() const { return *m_view->replay(); }

void OffscreenRenderer::setCaptionHeight(int pixels) {
    if (!m_caption) return;
    m_strip = std::clamp(pixels, 0, m_size.height() - 1);
    m_window.resize(m_size.width(), m_size.height() - m_strip);
    m_view->setGeometry(0, 0, m_size.width(), m_size.height() - m_strip);
    QApplication::processEvents();
}

RunCaption OffscreenRenderer::captionAt(Nanos t) const {
    RunCaption c = faultline::captionAt(*m_run, *m_view->replay(), m_ettr, t);
    c.note = m_note;
    c.where = m_where;
    return c;
}

void OffscreenRenderer::paintCallouts(QImage& scene, Nanos t) {
    QPainter p(&scene);
    p.setRenderHint(QPainter::Antialiasing);
    const int unit = std::max(10, scene.height() / 60);
    QFont font("DejaVu Sans");
    font.setPixelSize(unit * 13 / 10);
    font.setBold(true);
    p.setFont(font);
    for (std::int32_t f : m_view->replay()->failuresBetween(t - m_calloutSpan, t)) {
        const Failure& failure = m_run->failures[static_cast<std::size_t>(f)];
        const ComponentRef part = failure.component.kind != ComponentKind::None || failure.gpus.empty()
                                      ? failure.component
                                      : ComponentRef{ComponentKind::Gpu, failure.gpus.front()};
        const std::optional<QPointF> at = m_view->imagePointOf(part);
        if (!at || !scene.rect().contains(at->toPoint())) continue;
        // A ring the same size at every zoom, and the part named beside it on a dark backing.
        const double ring = unit * 2.2;
        for (const auto& [colour, width] : {std::pair{QColor(20, 20, 24), unit * 0.7}, std::pair{kCalloutColour, unit * 0.35}}) {
            p.setPen(QPen(colour, width));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(*at, ring, ring);
        }
        const std::string_view cause = rootCauseLabel(failure.cause);
        const QString text = QString("%1: %2").arg(QString::fromStdString(partName(m_run->topology, part)),
                                                   QString::fromUtf8(cause.data(), static_cast<qsizetype>(cause.size())));
        QRect box = p.fontMetrics().boundingRect(text).adjusted(-unit / 2, -unit / 4, unit / 2, unit / 4);
        box.moveTopLeft((*at + QPointF(ring + unit / 2.0, -box.height() / 2.0)).toPoint());
        if (box.right() > scene.width()) box.moveRight(static_cast<int>(at->x() - ring - unit / 2.0));
        p.fillRect(box, QColor(20, 20, 24, 220));
        p.setPen(kCalloutColour);
        p.drawText(box, Qt::AlignCenter, text);
    }
}

QImage OffscreenRenderer::render(Nanos t) {
    m_view->setTime(t);
    if (m_flashSpan > 0) {
        std::vector<std::int32_t> gpus;
        for (std::int32_t f : m_view->replay()->failuresBetween(t - m_flashSpan, t)) {
            const auto& g = m_run->failures[static_cast<std::size_t>(f)].gpus;
            gpus.insert(gpus.end(), g.begin(), g.end());
        }
        if (!gpus.empty()) m_view->setFlashing(std::move(gpus));
    }
    QImage scene = m_view->renderImage();
    // The 3D view is opaque: as RGB32 its bytes are what the encoder reads (BGRX), and the
    // frame in the same format takes it with a plain copy, not a conversion per pixel.
    if (scene.format() == QImage::Format_ARGB32_Premultiplied || scene.format() == QImage::Format_ARGB32)
        scene.reinterpretAsFormat(QImage::Format_RGB32);
    else if (scene.format() != QImage::Format_RGB32)
        scene = scene.convertToFormat(QImage::Format_RGB32);
    if (m_calloutSpan > 0) paintCallouts(scene, t);
    if (!m_caption) return scene;
    QImage frame(m_size, QImage::Format_RGB32);
    QPainter p(&frame);
    p.setCompositionMode(QPainter::CompositionMode_Source);
    // Scaled only on a high-DPI screen, where the view renders more pixels than the frame has.
    scene.setDevicePixelRatio(1);
    p.drawImage(QRect(0, 0, m_size.width(), m_size.height() - m_strip), scene);
    // The strip made opaque before the caption's translucent backing goes over it: a new
    // QImage holds whatever its memory held, often the frame before, whose caption then
    // showed through as a ghost.
    const QRect strip(0, m_size.height() - m_strip, m_size.width(), m_strip);
    p.fillRect(strip, Qt::black);
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
    paintCaption(p, strip, captionAt(t));
    return frame;
}

}  // namespace faultline
