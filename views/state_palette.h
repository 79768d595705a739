#pragma once
// The state colours every view draws with now: the one source of truth for View >
// Colour-Blind-Safe Colours. Changing it emits changed(), which every view that draws
// GPU states listens to, so that no window has to know which views to redraw.
#include "views/gpu_palette.h"

#include <QColor>
#include <QObject>

namespace faultline {

// A palette colour as Qt's.
inline QColor qColour(const Rgb& c, int alpha = 255) { return QColor(c[0], c[1], c[2], alpha); }

class StatePaletteChoice : public QObject {
    Q_OBJECT
public:
    // The application's one choice (made on first use, never destroyed, so that views
    // alive at exit can still disconnect from it).
    static StatePaletteChoice& instance();

    StatePaletteKind kind() const { return m_kind; }
    const StatePalette& palette() const { return m_kind == StatePaletteKind::ColourBlindSafe ? kOkabeItoStates : kStandardStates; }
    // Emits changed() when the kind is another than the one in use.
    void setKind(StatePaletteKind kind);

signals:
    void changed();

private:
    StatePaletteChoice() = default;
    StatePaletteKind m_kind = StatePaletteKind::Standard;
};

// Shorthand for the choice above.
inline void setStatePalette(StatePaletteKind kind) { StatePaletteChoice::instance().setKind(kind); }

}  // namespace faultline
