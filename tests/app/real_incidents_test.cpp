// The files people bring after an incident, written by real tools (../shared/realdata: console
// logs of crashed jobs, a hang's Flight Recorder dumps, kernel logs), each opened as a new user
// opens it: the first screen's headline names the failure, the failed GPU is drawn in the failed
// colour at the first symptom, no tile shows a figure its evidence cannot support, and
// `faultline-cli summary` says the same words.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "realdata.h"

#include "analysis/opening_instant.h"
#include "analysis/run_highlights.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"
#include "app/main_window.h"
#include "importers/importer.h"
#include "model/run_file.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_palette.h"
#include "views/replay_panel.h"
#include "views/summary_view.h"
#include "widgets/stat_tile.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QTextDocumentFragment>

#include <gtest/gtest.h>

#include <tuple>

namespace faultline {
namespace {

struct RealIncident {
    const char* input;     // under ../shared/realdata
    const char* headline;  // words the headline must hold (ROUND4.md / console_logs/README.md)
    const char* when;      // what the incident's time says of itself: "time inferred", "" for a printed time
};

// Each file's truth is in the real-data set's README.md and ROUND4.md.
const RealIncident kIncidents[] = {
    {"console_logs/34-bigscience-tr1-13B-ecc-iteration-traceback.log", "uncorrectable ECC error", "time inferred"},
    {"console_logs/36-bigscience-tr11-176B-default-prefix-cuda-unknown.log", "CUDA error: unknown error", "time inferred"},
    {"console_logs/39-m4-logs-tr141-exp6.1-iteration-node-failure.log", "jean-zay-iam37", ""},
    {"console_logs/41-m4-logs-tr141-try3-dmesg-hung-task.log", "blocked for more than 120 seconds", ""},
    {"flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st", "never joined", nullptr},
    {"xid_kernel_logs/gpud/components/memory/testdata/dmesg.decode.iso.log", "Xid 13", ""},
    {"training_logs/DeepSpeedExamples/applications/DeepSpeed-Chat/training/step1_supervised_finetuning/check-7b/training.log",
     "Expected all tensors to be on the same device", ""},
    {"training_logs/training_results_v4.0/Red_Hat/benchmarks/llama2_70b_lora/implementations/AS-8125GS-TNHR-RHEL9.4/scripts/results/"
     "240501220259714847728_1.log",
     "Segmentation fault", ""},
};

// The summary panel's first highlight, as plain text.
QString firstHighlight(const MainWindow& window) {
    const QString html = window.findChild<SummaryView*>()->highlightsText();
    const qsizetype from = html.indexOf("<li>"), to = html.indexOf("</li>");
    if (from < 0 || to < from) return {};
    return QTextDocumentFragment::fromHtml(html.mid(from + 4, to - from - 4)).toPlainText();
}

QString cliSummary(const std::string& runFile) {
    QProcess cli;
    cli.start(FAULTLINE_CLI, {"summary", QString::fromStdString(runFile)});
    if (!cli.waitForFinished(120'000)) return "<faultline-cli summary did not finish>";
    return QString::fromUtf8(cli.readAllStandardOutput());
}

// The line of `text` that starts with `label`.
QString lineStarting(const QString& text, const QString& label) {
    for (const QString& line : text.split('\n'))
        if (line.startsWith(label)) return line;
    return {};
}

TEST(RealIncidents, EachOpensOnWhatFailedWithNoFigureItsEvidenceCannotSupport) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    test::ScratchDir dir;
    for (const RealIncident& c : kIncidents) {
        SCOPED_TRACE(c.input);
        const std::string path = dir.file("incident.faultline");
        writeRunFile(importFiles({test::realData(c.input)}, {}).run, path);
        const faultline::Run run = readRunFile(path);
        const RunSummary s = summarize(run);
        const std::vector<std::string> highlights = runHighlights(run, s, analyzeStragglers(run));
        ASSERT_FALSE(highlights.empty());

        test::WindowOnRun w(path, {1920, 1080});
        ASSERT_TRUE(w.shown);
        MainWindow& window = w.window;
        // The headline names the failure.
        const QString headline = firstHighlight(window);
        // The same words (a label shows runs of spaces as one).
        EXPECT_EQ(headline.simplified().toStdString(), QString::fromStdString(highlights.front()).simplified().toStdString());
        EXPECT_TRUE(headline.contains(c.headline)) << headline.toStdString();
        EXPECT_TRUE(headline.startsWith("Failed: ") || headline.startsWith("Hung: ")) << headline.toStdString();

        // It opens at the first symptom, the failed GPUs drawn in the failed colour.
        const std::optional<Nanos> opening = openingInstant(run, w.window.currentRun()->incidents);
        ASSERT_TRUE(opening.has_value()) << "short evidence opens on its first incident";
        ReplayPanel& replay = *window.replayPanel();
        EXPECT_EQ(replay.time(), *opening);
        FabricView& view = *replay.fabricView();
        view.renderImage();
        for (const Incident& inc : w.window.currentRun()->incidents) {
            if (inc.begin != *opening || inc.failure < 0) continue;
            const Failure& f = run.failures[static_cast<std::size_t>(inc.failure)];
            if (f.component.kind != ComponentKind::Gpu) continue;  // a host's failure, or one naming no GPU
            EXPECT_EQ(view.gpuColourShown(f.component.index), kFailedColour) << run.topology.gpuName(f.component.index);
        }
        // When: the incident says where its time is the import's inference.
        if (c.when) {
            const QString chain = window.findChild<QPlainTextEdit*>("incidentChain")->toPlainText();
            const QString when = chain.split('\n').filter(QRegularExpression("^when: ")).value(0);
            EXPECT_TRUE(when.startsWith("when: ")) << chain.toStdString();
            EXPECT_EQ(when.endsWith(QString(" (%1)").arg(c.when)), *c.when != 0) << when.toStdString();
        }

        // No tile shows a figure its evidence cannot support; the CLI says the same words.
        const QString cli = cliSummary(path);
        EXPECT_TRUE(cli.startsWith("Highlights:\n  " + QString::fromStdString(highlights.front()) + "\n")) << cli.toStdString();
        const std::tuple<const char*, SummaryFigure, const char*> tiles[] = {
            {"ettrTile", SummaryFigure::Ettr, "Effective training time"},
            {"mtbfTile", SummaryFigure::Mtbf, "Mean time between failures"},
            {"detectionTile", SummaryFigure::DowntimeShares, "Downtime"},
            {"lostWorkTile", SummaryFigure::DowntimeShares, "Downtime"}};
        for (const auto& [name, figure, label] : tiles) {
            auto* tile = window.findChild<StatTile*>(name);
            ASSERT_NE(tile, nullptr) << name;
            EXPECT_FALSE(s.known(figure)) << name << ": minutes of evidence support no " << label;
            EXPECT_FALSE(tile->showsFigure()) << name << ": " << tile->value().toStdString();
            EXPECT_EQ(tile->value(), kNotEnoughToSay) << name;
            EXPECT_TRUE(lineStarting(cli, label).contains(kNotEnoughToSay)) << label << " in\n" << cli.toStdString();
        }
    }
}

// The Flight Recorder hang lock_gil_1st (culprit ranks 9 and 14; README there): at the hang the
// replay's status line says what the summary's headline says, and both culprits are red and
// labelled in 3D, not only the first.
TEST(RealIncidents, AHangsStatusLineIsItsHeadlineAndEveryCulpritIsLabelled) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("hang.faultline");
    writeRunFile(importFiles({test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/lock_gil_1st")}, {}).run, path);
    const faultline::Run run = readRunFile(path);
    ASSERT_TRUE(run.hang.has_value());
    const std::vector<std::string> highlights = runHighlights(run, summarize(run), analyzeStragglers(run));
    ASSERT_FALSE(highlights.empty());
    ASSERT_EQ(highlights.front().rfind("Hung: ", 0), 0u) << highlights.front();

    test::WindowOnRun w(path, {1920, 1080});
    ASSERT_TRUE(w.shown);
    ReplayPanel& replay = *w.window.replayPanel();
    const QString status = replay.statusText();
    EXPECT_TRUE(status.endsWith(QString::fromStdString(highlights.front()))) << status.toStdString();
    EXPECT_FALSE(status.contains("down: ")) << status.toStdString();

    FabricView& view = *replay.fabricView();
    view.renderImage();
    const QStringList labels = view.blastLabels();
    for (std::int32_t culprit : run.hang->culprits) {
        SCOPED_TRACE(culprit);
        const std::int32_t gpu = run.rankToGpu.at(static_cast<std::size_t>(culprit));
        EXPECT_EQ(view.gpuColourShown(gpu), kFailedColour);
        EXPECT_TRUE(labels.contains(QString::fromStdString(run.topology.gpuName(gpu) + " failed"))) << labels.join(" | ").toStdString();
    }
    EXPECT_EQ(run.hang->culprits, (std::vector<std::int32_t>{9, 14}));
}

}  // namespace
}  // namespace faultline
