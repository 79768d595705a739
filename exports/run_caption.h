#pragma once
// The caption strip under the 3D view in presentation mode, video frames and report
// snapshots: run, date, ETTR so far and what is happening now, in type large enough to read
// from the back of a room.
#include "analysis/goodput.h"
#include "model/replay_state.h"
#include "model/run.h"

#include <QString>

class QPainter;
class QRect;

namespace faultline {

struct RunCaption {
    QString run;        // "llama3-405b seed 1"
    QString when;       // "2024-03-05 14:02 UTC · day 12, 07:14 into the run"
    QString ettr;       // "ETTR so far 91.4%"
    QString now;        // "Down: Faulty GPU on r0412-h1-gpu3 — detecting"
    QString note;       // optional extra line (a presentation slide's caption)
};

// What the strip says at t. `ledger` is the run's goodput ledger (worked out once): ETTR so
// far is the cumulative figure over the days completed by t (the current day's own until
// the first is complete), the same per-day ledger the charts and `summary` show.
RunCaption captionAt(const Run& run, const ReplayIndex& replay, const GoodputLedger& ledger, Nanos t);

// The strip's height for an image of this height: ~9% of it, never below 56 px.
int captionHeight(int imageHeight);
// Paints the strip into `rect` (dark band, white type sized to the band).
void paintCaption(QPainter& painter, const QRect& rect, const RunCaption& caption);

}  // namespace faultline
