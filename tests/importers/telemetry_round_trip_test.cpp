// The simulator's telemetry, written as dcgm-exporter and nvidia-smi write it and imported
// again, must give back what the simulated run holds: the cluster power curve, the clocks of
// the GPUs that throttled in straggler episodes, and the ECC errors that rose before HBM
// failures.
#include "import_test_util.h"

#include "analysis/cluster_power.h"
#include "analysis/incidents.h"
#include "analysis/telemetry_warnings.h"
#include "simulator/cluster_logs.h"
#include "simulator/simulator.h"
#include "simulator/telemetry_logs.h"

#include <cmath>
#include <filesystem>
#include <map>

namespace faultline {
namespace {

using test::ScratchDir;

// A day of the tiny preset, failure- and straggler-dense so every kind of evidence shows.
SimulationParams denseDay() {
    SimulationParams p = simulationPreset("tiny");
    p.seed = 4;
    p.days = 1;
    p.failuresPerGpuDay *= 3;
    p.stragglersPerDay = 32;
    return p;
}

struct Emitted {
    Run simulated;
    Run imported;
    TelemetryLogSummary logs;
};

const Emitted& emitted() {
    static const ScratchDir dir;
    static const Emitted e = [] {
        Emitted out;
        const SimulationParams p = denseDay();
        out.simulated = simulate(p);
        writeClusterLogs(out.simulated, dir.file("cluster"), p.preset);
        out.logs = writeTelemetryLogs(out.simulated, telemetryModel(out.simulated, p), dir.file("cluster"));
        out.imported = importFiles({dir.file("cluster")}, {}).run;
        return out;
    }();
    return e;
}

std::int32_t sameGpu(const Run& from, std::int32_t gpu, const Run& in) {
    const std::string name = from.topology.gpuName(gpu);
    for (std::size_t g = 0; g < in.topology.gpus.size(); ++g)
        if (in.topology.gpuName(static_cast<std::int32_t>(g)) == name) return static_cast<std::int32_t>(g);
    return -1;
}

TEST(TelemetryRoundTrip, EveryHostWritesItsToolsFile) {
    const Emitted& e = emitted();
    EXPECT_EQ(e.logs.hosts, 32);
    EXPECT_EQ(e.logs.allHosts, 32);
    EXPECT_EQ(e.logs.interval, 5 * kMinute);
    ASSERT_FALSE(e.imported.telemetry.empty());
    for (std::string_view m : kSimulatedMetrics) EXPECT_TRUE(e.imported.telemetry.metricIndex(m)) << m;
}

// Power is printed to a milliwatt (dcgm-exporter) or a hundredth of a watt (nvidia-smi): the
// imported curve is the simulated one, bucket for bucket, within 0.01%.
TEST(TelemetryRoundTrip, PowerCurveComesBack) {
    const Emitted& e = emitted();
    const ClusterPower simulated = clusterPower(e.simulated);
    const ClusterPower imported = clusterPower(e.imported);
    ASSERT_TRUE(simulated.fromTelemetry) << simulated.source;
    ASSERT_TRUE(imported.fromTelemetry) << imported.source;
    EXPECT_EQ(imported.gpus, 256);
    std::map<std::int64_t, double> byEpoch;
    for (const PowerPoint& p : simulated.curve) byEpoch[e.simulated.info.startEpochNs + p.time] = p.megawatts;
    ASSERT_EQ(imported.curve.size(), simulated.curve.size());
    for (const PowerPoint& p : imported.curve) {
        const auto it = byEpoch.find(e.imported.info.startEpochNs + p.time);
        ASSERT_NE(it, byEpoch.end()) << "an imported bucket the simulated run lacks at " << p.time;
        EXPECT_NEAR(p.megawatts, it->second, 1e-4 * it->second);
    }
    EXPECT_NEAR(imported.energyMegawattHours, simulated.energyMegawattHours, 1e-4 * simulated.energyMegawattHours);

    // And both agree with the power model the simulator's readings come from: the GPUs draw up
    // to 2% under its levels, and five-minute samples see a restart's minutes only roughly.
    faultline::Run withoutTelemetry = e.simulated;
    withoutTelemetry.telemetry = {};
    const ClusterPower model = clusterPower(withoutTelemetry);
    ASSERT_FALSE(model.fromTelemetry);
    EXPECT_NEAR(simulated.meanMegawatts, model.meanMegawatts, 0.03 * model.meanMegawatts);
    EXPECT_NEAR(simulated.peakMegawatts, model.peakMegawatts, 0.03 * model.peakMegawatts);
}

// An episode whose GPU throttled says so in its clocks and throttle reasons, against its peers.
TEST(TelemetryRoundTrip, ThrottledStragglersCarryTheirClockEvidence) {
    const Emitted& e = emitted();
    const TelemetryModel model = telemetryModel(e.simulated, denseDay());
    int checked = 0;
    for (const StragglerEpisode& s : e.simulated.stragglers) {
        if (s.cause != "thermal throttling") continue;
        // Only what a sample saw: at least three readings while the job trained.
        int throttledSamples = 0;
        for (std::int64_t k = 0; k < model.samples(); ++k)
            if (model.time(k) >= s.begin && model.time(k) < s.end && model.reading(s.gpu, k).throttleReasons != 0) ++throttledSamples;
        if (throttledSamples < 3) continue;
        const std::int32_t gpu = sameGpu(e.simulated, s.gpu, e.imported);
        ASSERT_GE(gpu, 0);
        const Nanos shift = e.simulated.info.startEpochNs - e.imported.info.startEpochNs;
        const std::string evidence = stragglerEvidence(e.imported, gpu, s.begin + shift, s.end + shift);
        EXPECT_NE(evidence.find("SW thermal slowdown"), std::string::npos) << evidence;
        if (s.slowdown >= 1.06) {
            EXPECT_NE(evidence.find("SM clock"), std::string::npos) << "slowdown " << s.slowdown << ": " << evidence;
        }
        EXPECT_EQ(evidence, stragglerEvidence(e.simulated, s.gpu, s.begin, s.end)) << "the run file's own telemetry says the same";
        ++checked;
    }
    EXPECT_GE(checked, 2);
}

// HBM failures whose GPU's correctable errors rose carry that early warning in their
// incident, imported as simulated.
TEST(TelemetryRoundTrip, HbmFailuresCarryEccEarlyWarnings) {
    const Emitted& e = emitted();
    const TelemetryModel model = telemetryModel(e.simulated, denseDay());
    const auto incidents = buildIncidents(e.imported);
    int warned = 0, hbm = 0;
    for (const Failure& f : e.simulated.failures) {
        if (f.cause != RootCause::GpuHbm3Memory) continue;
        ++hbm;
        const std::int32_t gpu = sameGpu(e.simulated, f.gpus.at(0), e.imported);
        ASSERT_GE(gpu, 0);
        const auto incident = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) {
            return i.cause == RootCause::GpuHbm3Memory && std::find(i.gpus.begin(), i.gpus.end(), gpu) != i.gpus.end();
        });
        ASSERT_NE(incident, incidents.end()) << e.simulated.topology.gpuName(f.gpus[0]);
        std::string chain;
        for (const IncidentEvent& ev : incident->chain) chain += ev.what + "\n";
        const bool warnedHere = chain.find("correctable ECC errors (volatile) rose from") != std::string::npos;
        EXPECT_EQ(warnedHere, model.countsEccErrors(f.gpus[0])) << chain;
        warned += warnedHere;
    }
    EXPECT_GE(hbm, 2);
    EXPECT_GE(warned, 1);
}

}  // namespace
}  // namespace faultline
