#pragma once
// The one off-screen path: "this run at instant t, at this size" rendered to an image, with
// the caption strip beneath the 3D view. Report snapshots, video frames and presentation
// slides call it; nothing grabs the screen. The 3D view lives in a top-level widget that is
// never shown on screen (Qt::WA_DontShowOnScreen) but has a native window, so VTK gets a
// real OpenGL context at the requested size whatever the app's own window looks like.
#include "analysis/goodput.h"
#include "model/run.h"
#include "exports/run_caption.h"

#include <QImage>
#include <QSize>
#include <QWidget>

#include <memory>

namespace faultline {

class FabricView;
class ReplayIndex;

class OffscreenRenderer {
public:
    // `caption`: whether frames carry the caption strip beneath the 3D view.
    OffscreenRenderer(std::shared_ptr<const Run> run, QSize size, bool caption = true);
    ~OffscreenRenderer();

    FabricView& view() { return *m_view; }
    const ReplayIndex& replay() const;
    const Run& run() const { return *m_run; }
    QSize size() const { return m_size; }

    // GPUs of failures in (t - flashSpan, t] are drawn flashing, as the live replay does.
    void setFlashSpan(Nanos span) { m_flashSpan = span; }
    // Failures of (t - span, t] are called out: a ring at the failed part and its name and
    // cause beside it, so a single failed GPU reads in a frame of the whole hall.
    void setCalloutSpan(Nanos span) { m_calloutSpan = span; }
    // An extra caption line (a slide's text); empty for none.
    void setNote(const QString& note) { m_note = note; }
    // Where the frame's hardware stands, on the caption's top line (RunCaption::where).
    void setWhere(const QString& where) { m_where = where; }
    // The caption strip's height in pixels (captionHeight of the size unless set); the 3D
    // view takes the rest. Set before aiming the camera: the view's shape changes.
    void setCaptionHeight(int pixels);
    int captionStripHeight() const { return m_strip; }

    // The frame at t: 3D view and caption strip, `size` pixels, Format_RGB32.
    QImage render(Nanos t);
    RunCaption captionAt(Nanos t) const;

private:
    void paintCallouts(QImage& scene, Nanos t);

    std::shared_ptr<const Run> m_run;
    QSize m_size;
    bool m_caption;
    int m_strip;
    EttrSoFar m_ettr;
    QWidget m_window;
    FabricView* m_view;
    Nanos m_flashSpan = 0;
    Nanos m_calloutSpan = 0;
    QString m_note;
    QString m_where;
};

}  // namespace faultline
