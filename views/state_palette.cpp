#include "views/state_palette.h"

namespace faultline {

StatePaletteChoice& StatePaletteChoice::instance() {
    static auto* choice = new StatePaletteChoice;
    return *choice;
}

void StatePaletteChoice::setKind(StatePaletteKind kind) {
    if (kind == m_kind) return;
    m_kind = kind;
    emit changed();
}

const StatePalette& activeStatePalette() { return StatePaletteChoice::instance().palette(); }

}  // namespace faultline
