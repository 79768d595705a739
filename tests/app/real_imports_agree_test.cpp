// One truth in every view: each real-data import opened in the main window, and the summary,
// the root-cause chart, the incident table and the jobs panel asked the same questions. A
// reviewer who reads "1 unexpected interruption" in one panel must not read "No
// interruptions" in another.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"
#include "realdata.h"

#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"
#include "app/main_window.h"
#include "importers/importer.h"
#include "model/format.h"
#include "model/run_file.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/scene_legend.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/jobs_view.h"
#include "widgets/stat_tile.h"

#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

// A file or folder of each kind the real-data set holds.
const char* const kImports[] = {
    "training_logs/bigscience/experiments/gpt2-meg/meg_gpt2_base_n8_dp1_tp4_pp8-1809562.out",
    "console_logs/33-bigscience-meg-ds-zero-1999616-slurm-time-limit.log",
    "console_logs/34-bigscience-tr1-13B-ecc-iteration-traceback.log",
    "console_logs/39-m4-logs-tr141-exp6.1-iteration-node-failure.log",
    "console_logs/41-m4-logs-tr141-try3-dmesg-hung-task.log",
    "xid_kernel_logs/gpud/components/memory/testdata/dmesg.decode.iso.log",
    "flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st",
    "kineto/HolisticTraceAnalysis/tests/data/trace_filter",
    "slurm/gcm/gcm/tests/data/sample-sacct-output.txt",
    "telemetry/training_profile/h100-traces/power-trace_2025-07-26-23-32-09.csv",
};

QString shownTile(const QWidget& window, const char* name) {
    auto* t = window.findChild<StatTile*>(name);
    return t ? t->value() : QString("<no tile %1>").arg(name);
}

int barTotal(const QWidget& window, const char* chart, const char* set) {
    auto* view = window.findChild<QChartView*>(chart);
    if (!view) return -1;
    for (QAbstractSeries* series : view->chart()->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* b : bars->barSets())
                if (b->objectName() == set) {
                    double total = 0;
                    for (int i = 0; i < b->count(); ++i) total += b->at(i);
                    return static_cast<int>(total);
                }
    return -1;
}

TEST(RealImportsAgree, SummaryChartsIncidentsAndJobsTellOneStory) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    test::ScratchDir dir;
    for (const char* input : kImports) {
        SCOPED_TRACE(input);
        const std::string path = dir.file("import.faultline");
        writeRunFile(importFiles({test::realData(input)}, {}).run, path);
        const faultline::Run run = readRunFile(path);
        const RunSummary s = summarize(run);

        test::WindowOnRun w(path, {1600, 1000});
        ASSERT_TRUE(w.shown);
        MainWindow& window = w.window;

        // The summary's figures are the analysis's.
        EXPECT_EQ(shownTile(window, "interruptionsTile"), QString::number(s.planned + s.unexpected));
        EXPECT_EQ(shownTile(window, "ettrTile"), s.ettrKnown ? QString::fromStdString(formatPercent(s.ettr)) : QString(kNotEnoughToSay));
        // No tile shows a figure its evidence cannot support.
        const std::pair<const char*, SummaryFigure> needing[] = {{"ettrTile", SummaryFigure::Ettr},
                                                                 {"mtbfTile", SummaryFigure::Mtbf},
                                                                 {"detectionTile", SummaryFigure::DowntimeShares},
                                                                 {"lostWorkTile", SummaryFigure::DowntimeShares}};
        for (const auto& [name, figure] : needing) {
            auto* t = window.findChild<StatTile*>(name);
            ASSERT_NE(t, nullptr) << name;
            EXPECT_EQ(t->showsFigure(), s.known(figure)) << name << ": " << t->value().toStdString();
        }
        // Every interruption is an incident in the table, and the chart counts the unexpected ones.
        auto* incidents = window.findChild<IncidentView*>();
        ASSERT_NE(incidents, nullptr);
        EXPECT_EQ(incidents->visibleIncidentCount(), s.planned + s.unexpected);
        EXPECT_EQ(barTotal(window, "causesChart", "causeCounts"), s.unexpected);
        // The jobs panel lists the jobs that trained the run, and says none only when none did.
        auto* jobs = window.findChild<JobsView*>();
        ASSERT_NE(jobs, nullptr);
        int trained = 0;
        for (int row = 0; row < jobs->rowCount(); ++row) {
            const std::int32_t j = jobs->jobAt(row);
            trained += j >= 0 && run.jobs[static_cast<std::size_t>(j)].parent < 0 && run.jobs[static_cast<std::size_t>(j)].inRun;
        }
        EXPECT_EQ(trained, s.jobsInRun);
        auto* none = window.findChild<QLabel*>("jobsEmpty");
        ASSERT_NE(none, nullptr);
        EXPECT_EQ(none->text().contains("No job trained this run"), s.jobsInRun == 0 && !run.jobs.empty()) << none->text().toStdString();
        // GPUs no trace covers are "no data" in the 3D view's legend and the inspector, never
        // training with "no failures"; the others keep their history.
        auto* fabric = window.findChild<FabricView*>();
        ASSERT_NE(fabric, nullptr);
        const auto& entries = fabric->legend().entries();
        EXPECT_EQ(std::any_of(entries.begin(), entries.end(), [](const LegendEntry& e) { return e.text == "no data: not traced"; }),
                  !run.untracedGpus.empty());
        auto* inspector = window.findChild<InspectorView*>();
        auto* history = inspector->findChild<QListWidget*>("inspectorHistory");
        auto* now = inspector->findChild<QLabel*>("inspectorNow");
        for (std::int32_t gpu = 0; gpu < static_cast<std::int32_t>(run.topology.gpus.size()); gpu += 7) {
            inspector->showPart({ComponentKind::Gpu, gpu});
            const bool untraced = std::binary_search(run.untracedGpus.begin(), run.untracedGpus.end(), gpu);
            const bool saysNoTrace = history->count() == 1 && history->item(0)->text().startsWith("No trace covers this GPU");
            EXPECT_EQ(saysNoTrace, untraced) << run.topology.gpuName(gpu);
            if (untraced) {
                EXPECT_TRUE(now->text().contains("no data")) << now->text().toStdString();
            }
        }
        // A rank the summary names late is late in its GPU's history too.
        for (const RankStragglerScore& r : analyzeStragglers(run).ranks) {
            if (r.late == 0 || r.gpu < 0) continue;
            inspector->showPart({ComponentKind::Gpu, r.gpu});
            ASSERT_GE(history->count(), 1);
            EXPECT_EQ(history->item(0)->text().toStdString(), "late rank " + std::to_string(r.rank) + " in the traced collectives: " + lateRankText(r));
        }
    }
}

}  // namespace
}  // namespace faultline
