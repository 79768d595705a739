#pragma once
// The caption strip under the 3D view in presentation mode, video frames and report
// snapshots: run, date, ETTR so far and what is happening now, in type large enough to read
// from the back of a room.
#include "analysis/goodput.h"
#include "model/replay_state.h"
#include "model/run.h"

#include <QString>

#include <optional>
#include <vector>

class QPainter;
class QRect;

namespace faultline {

struct RunCaption {
    QString run;        // "llama3-405b seed 1"
    QString when;       // "2024-03-05 14:02 UTC · day 12, 07:14 into the run"
    QString ettr;       // "ETTR so far 91.4%"
    QString now;        // "Down: Faulty GPU on r0412-h1-gpu3 — detecting"
    QString note;       // optional extra line (a presentation slide's caption)
    // Where an incident slide's hardware stands ("Building C · Hall C1 · c1-ib-32k · ..."),
    // after the run's name on the top line; the run's name gives way where both do not fit.
    QString where;
};

// ETTR from the run's start up to an instant, by the same ledger the charts and `summary`
// show, kept in periods of a 20,000th of the run: whole periods up to t and the share of the
// one holding t. (Summing whole days only held the figure still through a day of failures.)
class EttrSoFar {
public:
    explicit EttrSoFar(const Run& run);
    // Empty where the run does not say how its time was spent.
    std::optional<double> at(Nanos t) const;

private:
    Nanos m_period = 1;
    std::vector<double> m_ettr;       // each period's own
    std::vector<double> m_keptBefore;  // ETTR-time kept before each period, in ns
};

// What the strip says at t; `ettr` is worked out once per run.
RunCaption captionAt(const Run& run, const ReplayIndex& replay, const EttrSoFar& ettr, Nanos t);

// The strip's height for an image of this height: ~9% of it, never below 56 px.
int captionHeight(int imageHeight);
// A slide's strip (the presentation window's and its PDF's): three lines in type for the
// back of the room, twice a video frame's.
int slideCaptionHeight(int imageHeight);
// Paints the strip into `rect` (dark band, white type sized to the band).
void paintCaption(QPainter& painter, const QRect& rect, const RunCaption& caption);

}  // namespace faultline
