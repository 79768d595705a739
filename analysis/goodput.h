#pragma once
// The goodput ledger: every nanosecond of a run is either productive training or one kind
// of badput, so the parts add up to the whole run, per day and overall.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace faultline {

struct Badput {
    Nanos detection = 0;          // failure struck, not yet detected
    Nanos restart = 0;            // job torn down, relaunched and re-initialised
    Nanos reload = 0;             // checkpoint loading
    Nanos lostWork = 0;           // training after the last durable checkpoint, redone later
    Nanos checkpointSave = 0;     // training blocked while saving checkpoints
    Nanos stragglerSlowdown = 0;  // the part of kept steps spent waiting for slow GPUs
    Nanos planned = 0;            // planned maintenance, stop to resume
    Nanos total() const {
        return detection + restart + reload + lostWork + checkpointSave + stragglerSlowdown + planned;
    }
};

struct GoodputPeriod {
    Nanos begin = 0;
    Nanos end = 0;
    Nanos productive = 0;  // kept training at full speed; productive + badput.total() == end - begin
    Badput badput;
    // Effective training time ratio, as Meta reports it: time spent training on work that was
    // kept, straggler slowdown included (the job was training, only slower).
    double ettr() const;
    // The stricter figure: productive time only.
    double goodput() const;
};

struct CauseMtbf {
    RootCause cause;
    int count = 0;
    Nanos mtbf = 0;
};

struct GoodputLedger {
    GoodputPeriod whole;
    std::vector<GoodputPeriod> days;  // 24-hour periods from the run's start
    // Whether the run says how its time was spent (steps or downtimes): a run made of
    // failure logs alone does not, and its ETTR is unknown, not 100%.
    bool timeAccounted = false;
    // Interruptions: downtimes, and failures no downtime accounts for (e.g. from kernel logs).
    int planned = 0;
    int unexpected = 0;
    // Unexpected interruptions the files show no downtime for (a failure with no restart
    // after it, e.g. the job's last line): counted, but costing nothing in ETTR.
    int withoutDowntime = 0;
    Nanos mtbf = 0;                    // 0 when there were no unexpected interruptions
    std::vector<CauseMtbf> mtbfByCause;  // most frequent first
};

// `period` sets the length of the ledger's `days` (24 h unless a chart wants finer steps).
GoodputLedger computeGoodput(const Run& run, Nanos period = kDay);
nlohmann::json goodputToJson(const GoodputLedger& ledger);
std::string goodputToText(const GoodputLedger& ledger);

}  // namespace faultline
