#include "colour_by_menu.h"

#include "model/metric_text.h"
#include "model/run.h"
#include "views/fabric/fabric_view.h"
#include "views/metric_scale.h"

#include <QActionGroup>

#include <algorithm>

namespace {
// A bitmask (clock throttle reasons: each bit a reason) has no order: as a continuous colour
// scale from "least" to "most" it would say nothing true, so it is not offered.
bool isColourScale(const std::string& metric) { return faultline::metricInfo(metric).unit != "bitmask"; }
}  // namespace

namespace faultline {

ColourByMenu::ColourByMenu(FabricView& view, QWidget* parent) : QMenu(tr("Colour &By"), parent), m_view(view), m_group(new QActionGroup(this)) {
    setObjectName("colourByMenu");
    m_group->setExclusive(true);
    // The view can go back to state by itself (a new run): the menu says so.
    connect(&m_view, &FabricView::colourByChanged, this, [this] { showChoice(); });
    setRun(nullptr);
}

void ColourByMenu::setRun(const Run* run) {
    clear();
    for (QAction* a : m_group->actions()) m_group->removeAction(a);
    QAction* state = addAction(tr("&State"));
    state->setObjectName("colourByState");
    state->setCheckable(true);
    state->setData(-1);
    m_group->addAction(state);
    connect(state, &QAction::triggered, this, [this] { m_view.setColourBy(std::nullopt); });
    const bool telemetry = run && !run->telemetry.empty();
    const bool jobs = run && !run->jobs.empty();
    setEnabled(telemetry || jobs);
    setToolTip(telemetry || jobs ? QString() : tr("This run has no GPU telemetry and no jobs"));
    if (jobs) {
        // Whose hardware is whose: on a fleet, which job holds each GPU at the instant.
        QAction* job = addAction(tr("&Job"));
        job->setObjectName("colourByJob");
        job->setCheckable(true);
        job->setData(kColourByJob);
        job->setToolTip(tr("Each GPU in the colour of the job holding it; idle hardware pale"));
        m_group->addAction(job);
        connect(job, &QAction::triggered, this, [this] { m_view.setColourBy(kColourByJob); });
    }
    if (telemetry) {
        addSeparator();
        // By name, as a person looks for them: "GPU temperature (°C)", "Power (W)", "SM clock (MHz)".
        std::vector<std::pair<QString, std::int32_t>> metrics;
        for (std::size_t i = 0; i < run->telemetry.metrics.size(); ++i)
            if (isColourScale(run->telemetry.metrics[i]))
                metrics.push_back({QString::fromStdString(metricTitle(run->telemetry.metrics[i])), static_cast<std::int32_t>(i)});
        std::sort(metrics.begin(), metrics.end(), [](const auto& a, const auto& b) { return a.first.localeAwareCompare(b.first) < 0; });
        for (const auto& [title, index] : metrics) {
            QAction* a = addAction(title);
            a->setObjectName(QString("colourBy:%1").arg(QString::fromStdString(run->telemetry.metrics[static_cast<std::size_t>(index)])));
            a->setCheckable(true);
            a->setData(index);
            a->setToolTip(QString::fromStdString(run->telemetry.metrics[static_cast<std::size_t>(index)]));  // DCGM's own name
            m_group->addAction(a);
            connect(a, &QAction::triggered, this, [this, i = index] { m_view.setColourBy(i); });
        }
    }
    setToolTipsVisible(true);
    showChoice();
}

void ColourByMenu::showChoice() {
    const int chosen = m_view.colourBy().value_or(-1);
    for (QAction* a : m_group->actions()) a->setChecked(a->data().toInt() == chosen);
}

QStringList ColourByMenu::entries() const {
    QStringList out;
    for (QAction* a : m_group->actions()) out << a->text().remove('&');
    return out;
}

bool ColourByMenu::choose(const QString& text) {
    for (QAction* a : m_group->actions())
        if (a->text().remove('&') == text) {
            a->trigger();
            return true;
        }
    return false;
}

}  // namespace faultline
