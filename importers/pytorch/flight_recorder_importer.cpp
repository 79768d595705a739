// PyTorch NCCL Flight Recorder dumps, one per rank: the pickle PyTorch writes and its JSON
// variant, read by the same reader as `faultline-cli hang` (flight_recorder_reader.h). The
// dump itself goes into the run's events whole: the run builder makes the collectives of
// it, and the import analyses the hang from all dumps together (importer.cpp).
#include "importers/pytorch/flight_recorder_collectives.h"
#include "importers/pytorch/flight_recorder_document.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/pytorch/readers.h"
#include "importers/pytorch/pickle_reader.h"

#include <array>

namespace faultline {

namespace {

void importDump(const std::string& path, std::string_view data, ImportContext& ctx) {
    ctx.tick(0.0);
    FlightRecorderDump dump = readFlightRecorderDump(path, data, FlightRecorderReading{.lists = ctx.flightRecorderGroupLists, .timings = true});
    ctx.tick(0.5);
    if (dump.rank > kMaxRank)
        throw Error(path + ": rank " + std::to_string(dump.rank) + " is not a rank (expected 0 to " + std::to_string(kMaxRank) + ")");
    ctx.report.ranks.insert(dump.rank);
    ctx.events.worldSize = std::max(ctx.events.worldSize, dump.rank + 1);
    for (const auto& [name, group] : dump.groups)
        for (std::int32_t r : *group.ranks) {
            if (r > kMaxRank)
                throw Error(path + ": pg_config \"" + name + "\" lists rank " + std::to_string(r) + ", not a rank (expected 0 to " +
                            std::to_string(kMaxRank) + ")");
            ctx.events.worldSize = std::max(ctx.events.worldSize, r + 1);
        }
    if (!dump.groups.empty()) ctx.report.count("process groups", static_cast<std::int64_t>(dump.groups.size()));

    const FlightRecorderCollectives collectives(dump);
    // Counted here and reported once per state: a dump has thousands of entries.
    std::array<std::int64_t, 4> byState{};
    for (std::size_t i = 0; i < dump.entries.size(); ++i) {
        const auto c = collectives.at(i);
        if (const auto* why = std::get_if<const char*>(&c)) {
            ctx.report.skip(path + ": entries[" + std::to_string(i) + "]: " + *why);
            continue;
        }
        const auto& collective = std::get<FlightRecorderCollective>(c);
        ++byState[static_cast<std::size_t>(dump.entries[i].state)];
        ctx.report.seen(collective.enter);
        ctx.report.seen(collective.exit);
    }
    std::int64_t counted = 0;
    for (std::size_t s = 0; s < byState.size(); ++s) {
        if (byState[s] == 0) continue;
        const auto state = static_cast<FlightRecorderState>(s);
        ctx.report.count(state == FlightRecorderState::Unknown ? std::string("collectives without state")
                                                               : "collectives " + std::string(flightRecorderStateText(state)),
                         byState[s]);
        counted += byState[s];
    }
    if (counted > 0) ctx.report.count("collectives", counted);
    ctx.events.flightRecorderDumps.push_back(std::move(dump));
}

}  // namespace

void importFlightRecorderBytes(const std::string& path, std::string_view data, ImportContext& ctx) {
    if (!looksLikePickle(data)) throw Error(path + ": byte 0: expected a pickle (protocol 2 or later), as PyTorch writes Flight Recorder dumps");
    importDump(path, data, ctx);
}

void importFlightRecorderJsonBytes(const std::string& path, std::string_view data, ImportContext& ctx) {
    if (looksLikePickle(data)) throw Error(path + ": a pickle, not the JSON variant of a Flight Recorder dump (import it as flight-recorder)");
    importDump(path, data, ctx);
}

void importFlightRecorder(const std::string& path, ImportContext& ctx) {
    const FlightRecorderFileBuffer file(path);
    importFlightRecorderBytes(path, file.data(), ctx);
}

void importFlightRecorderJson(const std::string& path, ImportContext& ctx) {
    const FlightRecorderFileBuffer file(path);
    importFlightRecorderJsonBytes(path, file.data(), ctx);
}

}  // namespace faultline
