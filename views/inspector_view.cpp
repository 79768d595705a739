#include "views/inspector_view.h"
#include "widgets/qt_text.h"

#include "analysis/blast_radius.h"
#include "analysis/hang_analysis.h"
#include "analysis/hang_lanes.h"
#include "analysis/incidents.h"
#include "analysis/next_checks.h"
#include "views/incident_view.h"
#include "views/gpu_metric_chart.h"
#include "views/metric_scale.h"
#include "model/format.h"
#include "model/metric_at_instant.h"
#include "model/metric_text.h"
#include "model/unplaced_hosts.h"

#include <QLabel>
#include <QLineEdit>
#include <QCompleter>
#include <QListWidget>
#include <QStringListModel>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace faultline {

namespace {

QString rackPlace(const Topology& t, std::int32_t rack) {
    const Rack& r = t.racks[static_cast<std::size_t>(rack)];
    return QObject::tr("zone %1, row %2, rack %3 (position %4)")
        .arg(qtText(t.zones[static_cast<std::size_t>(r.zone)].name))
        .arg(r.row)
        .arg(qtText(r.name))
        .arg(r.position);
}

bool touches(const Failure& f, const std::vector<std::int32_t>& gpus) {
    return std::any_of(f.gpus.begin(), f.gpus.end(),
                       [&](std::int32_t g) { return std::find(gpus.begin(), gpus.end(), g) != gpus.end(); });
}

}  // namespace

std::optional<ComponentRef> findPart(const Topology& topology, const std::string& name) {
    if (auto host = topology.findHost(name)) return ComponentRef{ComponentKind::Host, *host};
    if (auto sw = topology.findSwitch(name)) return ComponentRef{ComponentKind::Switch, *sw};
    const auto cut = name.rfind("-gpu");
    if (cut == std::string::npos) return std::nullopt;
    const auto host = topology.findHost(name.substr(0, cut));
    if (!host) return std::nullopt;
    const std::string index = name.substr(cut + 4);
    if (index.empty() || !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    const Host& h = topology.hosts[static_cast<std::size_t>(*host)];
    const int i = std::stoi(index);
    if (i >= h.gpuCount) return std::nullopt;
    return ComponentRef{ComponentKind::Gpu, h.firstGpu + i};
}

InspectorView::InspectorView(QWidget* parent)
    : QWidget(parent), m_find(new QLineEdit(this)), m_title(new QLabel(this)), m_details(new QLabel(this)),
      m_now(new QLabel(this)), m_blast(new QLabel(this)), m_hang(new QLabel(this)), m_nextChecks(new QLabel(this)),
      m_history(new QListWidget(this)),
      m_chart(new GpuMetricChart(this)), m_completer(new QCompleter(this)),
      m_completions(new QStringListModel(this)) {
    setObjectName("inspector");
    m_find->setObjectName("findPart");
    m_find->setPlaceholderText(tr("Find a GPU, host, rack, switch, cable, PCI id, rank or incident"));
    // The list is worked out here (prefix, then substring), so the completer shows it as is.
    m_completer->setModel(m_completions);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setMaxVisibleItems(12);
    m_completer->setObjectName("findCompleter");
    m_find->setCompleter(m_completer);
    connect(m_find, &QLineEdit::textEdited, this, &InspectorView::updateCompletions);
    connect(m_completer, qOverload<const QModelIndex&>(&QCompleter::activated), this, [this](const QModelIndex& index) {
        if (index.row() >= 0 && index.row() < static_cast<int>(m_shownHits.size())) go(m_shownHits[static_cast<std::size_t>(index.row())]);
    });
    m_find->setClearButtonEnabled(true);
    m_title->setObjectName("inspectorTitle");
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setObjectName("inspectorDetails");
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_now->setObjectName("inspectorNow");
    m_now->setWordWrap(true);
    m_hang->setObjectName("inspectorHang");
    m_hang->setWordWrap(true);
    m_hang->setTextFormat(Qt::RichText);
    m_hang->hide();
    connect(m_hang, &QLabel::linkActivated, this, [this](const QString& link) { emit hangRequested(link.toInt()); });
    m_nextChecks->setObjectName("inspectorNextChecks");
    m_nextChecks->setWordWrap(true);
    m_nextChecks->setTextFormat(Qt::RichText);
    m_nextChecks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nextChecks->hide();
    m_blast->setObjectName("inspectorBlastRadius");
    m_blast->setTextFormat(Qt::PlainText);
    m_blast->setWordWrap(true);
    m_blast->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_history->setObjectName("inspectorHistory");
    m_history->setWordWrap(true);
    m_history->setToolTip(tr("Click an entry to move the replay there"));
    connect(m_history, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QVariant t = item->data(Qt::UserRole);
        if (t.isValid()) emit timeRequested(t.value<Nanos>());
    });
    setMinimumWidth(200);
    setMaximumWidth(340);
    m_history->setMinimumHeight(40);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 4, 4);
    layout->addWidget(m_find);
    layout->addWidget(m_title);
    layout->addWidget(m_details);
    layout->addWidget(m_now);
    layout->addWidget(m_blast);
    layout->addWidget(m_hang);
    layout->addWidget(m_nextChecks);
    layout->addWidget(m_chart);
    layout->addWidget(m_history, 1);
    layout->addStretch(0);  // holds the hint at the top while the history is hidden
    connect(m_find, &QLineEdit::returnPressed, this, &InspectorView::search);
    connect(m_chart, &TimeChartView::timeClicked, this, &InspectorView::timeRequested);
    m_chart->hide();
    fill();
}

void InspectorView::setRun(std::shared_ptr<const Run> run, const ReplayIndex* replay) {
    m_hostJobs.reset();  // it refers to the old run
    m_run = std::move(run);
    if (m_run && !m_run->jobs.empty()) m_hostJobs = std::make_unique<HostJobs>(*m_run);
    m_replay = replay;
    m_part = {};
    m_incidents.clear();
    m_lateByGpu.clear();
    m_indexStale = true;
    m_metric.reset();  // metric indices are the old run's
    setMetric(std::nullopt);
}

void InspectorView::setMetric(std::optional<std::int32_t> metric) {
    m_metric = metric;
    m_metricShown = -1;
    if (m_run && !m_run->telemetry.empty()) {
        const auto power = m_run->telemetry.metricIndex(kPowerMetric);
        m_metricShown = metric ? *metric : power ? *power : 0;
    }
    m_reading = m_metricShown >= 0 ? std::make_unique<MetricAtInstant>(*m_run, m_metricShown) : nullptr;
    fill();
}

InspectorView::~InspectorView() = default;

void InspectorView::setLateRanks(const StragglerReport& stragglers) {
    m_lateByGpu.clear();
    for (const RankStragglerScore& r : stragglers.ranks)
        if (r.late > 0 && r.gpu >= 0) m_lateByGpu[r.gpu] = {r.rank, r.evidence.empty() ? 0 : r.evidence.front().enter, lateRankText(r)};
    if (m_run) fill();
}

void InspectorView::setIncidents(const std::vector<Incident>& incidents) {
    m_incidents = incidents;
    m_indexStale = true;
}

const RunSearchIndex& InspectorView::index() {
    if (m_indexStale) {
        m_index = m_run ? RunSearchIndex(*m_run, m_incidents) : RunSearchIndex();
        m_indexStale = false;
    }
    return m_index;
}

void InspectorView::updateCompletions(const QString& text) {
    m_shownHits = index().find(text.toStdString(), 30);
    QStringList labels;
    for (const SearchHit& h : m_shownHits) labels << QString::fromStdString(h.label);
    m_completions->setStringList(labels);
    if (!labels.isEmpty()) m_completer->complete();
}

bool InspectorView::searchFor(const QString& text) {
    m_find->setText(text);
    search();
    return m_part.kind != ComponentKind::None;
}

void InspectorView::go(const SearchHit& hit) {
    // The box shows the name picked, not the completion's label.
    m_find->setText(QString::fromStdString(hit.key));
    if (hit.time) emit timeRequested(*hit.time);
    if (hit.part.kind == ComponentKind::None) return;
    showPart(hit.part);
    if (hit.kind == SearchHit::Kind::Rack) m_title->setText(tr("rack %1 (its first host: %2)").arg(QString::fromStdString(hit.key), m_title->text()));
    emit found(hit.part);
}

void InspectorView::setTime(Nanos t) {
    m_time = t;
    fillNow();
    if (m_chart->isVisible()) m_chart->setCursor(t);
}

void InspectorView::fillNow() {
    if (!m_run || !m_replay || (m_part.kind != ComponentKind::Gpu && m_part.kind != ComponentKind::Host)) {
        m_now->clear();
        return;
    }
    // The states of this part's GPUs at the instant shown, most alarming first.
    const std::vector<GpuVisual> states = m_replay->statesAt(m_time);
    const std::vector<std::int32_t> gpus =
        m_part.kind == ComponentKind::Gpu ? std::vector<std::int32_t>{m_part.index} : m_run->topology.gpusOfHost(m_part.index);
    std::array<int, kGpuStateCount> counts{};
    int replaced = 0, slowest = 0;
    for (std::int32_t g : gpus) {
        const GpuVisual& v = states[static_cast<std::size_t>(g)];
        ++counts[static_cast<std::size_t>(v.state)];
        replaced += v.replaced;
        slowest = std::max<int>(slowest, v.slowdownPercent);
    }
    QStringList parts;
    for (int i = kGpuStateCount - 1; i >= 0; --i) {
        if (counts[static_cast<std::size_t>(i)] == 0) continue;
        const auto state = static_cast<GpuState>(i);
        QString text = gpus.size() == 1 ? QString(gpuStateName(state)) : tr("%1 %2").arg(counts[static_cast<std::size_t>(i)]).arg(gpuStateName(state));
        if (state == GpuState::Straggling) text += tr(" (%1% slower)").arg(slowest);
        parts << text;
    }
    if (replaced > 0) parts << (gpus.size() == 1 ? tr("replaced hardware") : tr("%1 replaced").arg(replaced));
    // The scheduler's job holding it now, as View > Colour By > Job colours it.
    if (m_hostJobs) {
        const std::int32_t host = m_part.kind == ComponentKind::Host ? m_part.index : m_run->topology.gpus[static_cast<std::size_t>(m_part.index)].host;
        const std::int32_t job = m_hostJobs->jobAt(host, m_time);
        if (job < 0) {
            parts << tr("no job");
        } else {
            const Job& j = m_run->jobs[static_cast<std::size_t>(job)];
            parts << (j.name.empty() ? tr("job %1").arg(qtText(j.id)) : tr("job %1 (%2)").arg(qtText(j.id), qtText(j.name)));
        }
    }
    // The reading the 3D view colours this GPU by, as a Grafana panel would show it now.
    if (m_reading && gpus.size() == 1) {
        const std::string& metric = m_run->telemetry.metrics[static_cast<std::size_t>(m_metricShown)];
        parts << tr("%1 %2").arg(QString::fromStdString(std::string(metricInfo(metric).label)),
                                 QString::fromStdString(formatMetricValue(m_reading->valueAt(gpus.front(), m_time), std::string(metricInfo(metric).unit))));
    }
    m_now->setText(tr("Now: %1").arg(parts.join(", ")));
}

void InspectorView::showPart(const ComponentRef& part) {
    m_part = part;
    fill();
}

void InspectorView::search() {
    if (!m_run) return;
    const QString text = m_find->text().trimmed();
    // An exact name first (as before); else the best prefix or substring match.
    if (const auto part = findPart(m_run->topology, text.toStdString())) {
        showPart(*part);
        emit found(*part);
        return;
    }
    if (const auto hit = index().best(text.toStdString())) {
        go(*hit);
        return;
    }
    m_part = {};
    fill();
    m_title->setText(tr("Nothing named or containing “%1”").arg(text));
    emit found(ComponentRef{});  // the old outline goes
}

namespace {

// The rank that ran on a GPU, -1 for none.
std::int32_t rankOnGpu(const Run& run, std::int32_t gpu) {
    const auto& ranks = run.rankToGpu;
    const auto it = std::find(ranks.begin(), ranks.end(), gpu);
    return it == ranks.end() ? -1 : static_cast<std::int32_t>(it - ranks.begin());
}

// "<br>rank 13: tensor rank 1 of 4, pipeline stage 3 of 8, ..." for the GPU a rank ran on.
QString rankLine(const Run& run, std::int32_t gpu) {
    const std::int32_t rank = rankOnGpu(run, gpu);
    if (rank < 0) return {};
    const std::string role = rankRoleText(run.jobShape, rank);
    return QObject::tr("<br>rank %1%2").arg(rank).arg(role.empty() ? QString() : QString::fromStdString(": " + role));
}

}  // namespace

void InspectorView::fill() {
    m_history->clear();
    if (!m_run || m_part.kind == ComponentKind::None) {
        // Nothing to list yet: a hint in place of an empty list beside the view.
        m_title->setText(tr("Click a GPU, host or switch"));
        m_details->setText(tr("or find one above. Its state at this instant, its failures and straggler episodes show "
                              "here; for a switch or cable, what it would cut off."));
        m_now->clear();
        m_blast->clear();
        m_blast->hide();
        m_hang->hide();
        m_nextChecks->hide();
        m_history->hide();
        m_chart->hide();
        return;
    }
    m_history->show();
    const Topology& t = m_run->topology;
    std::vector<std::int32_t> gpus;
    const auto i = static_cast<std::size_t>(m_part.index);
    if (m_part.kind == ComponentKind::Gpu) {
        const Gpu& g = t.gpus[i];
        const Host& h = t.hosts[static_cast<std::size_t>(g.host)];
        m_title->setText(qtText(t.gpuName(m_part.index)));
        if (isUnplacedHost(h))  // no file names its host: no rack, host or GPU index to give
            m_details->setText(tr("host unknown: no file places this rank, so it is drawn apart with the unplaced ranks%1")
                                   .arg(rankLine(*m_run, m_part.index)));
        else
            m_details->setText(tr("GPU %1 of host %2%6<br>%3<br>PCI bus id %4%5")
                                   .arg(g.index).arg(qtText(h.name)).arg(rackPlace(t, h.rack)).arg(g.pciBusId.empty() ? tr("unknown") : qtText(g.pciBusId))
                                   .arg(rankLine(*m_run, m_part.index))
                                   .arg(h.gpuCountAssumed ? tr(" (of an assumed %1: no file numbers this host's GPUs)").arg(h.gpuCount) : QString()));
        gpus = {m_part.index};
    } else if (m_part.kind == ComponentKind::Host) {
        const Host& h = t.hosts[i];
        m_title->setText(qtText(h.name));
        m_details->setText(isUnplacedHost(h) ? tr("not a host: %1 ranks no file places, drawn apart (host unknown)").arg(h.gpuCount)
                         : h.gpuCountAssumed ? tr("host with %1 GPUs, an assumed count: no file numbers its GPUs<br>%2").arg(h.gpuCount).arg(rackPlace(t, h.rack))
                                             : tr("host with %1 GPUs<br>%2").arg(h.gpuCount).arg(rackPlace(t, h.rack)));
        gpus = t.gpusOfHost(m_part.index);
    } else if (m_part.kind == ComponentKind::Switch) {
        const Switch& s = t.switches[i];
        m_title->setText(qtText(s.name));
        // A fat tree's zones are its scalable units (the leaves that share hosts).
        const bool units = t.fabric == FabricKind::InfinibandFatTree;
        QString where = s.rack >= 0   ? rackPlace(t, s.rack)
                        : s.zone >= 0 ? (units ? tr("unit %1") : tr("zone %1")).arg(qtText(t.zones[static_cast<std::size_t>(s.zone)].name))
                        : units       ? tr("joins all units")
                                      : tr("joins all zones");
        // Tiers as this fabric names them; a rail leaf serves one NIC of each of its hosts.
        const QString rail = s.rail >= 0 ? tr(", rail %1 (NIC %1 of each host)").arg(s.rail) : QString();
        m_details->setText(tr("%1 switch%2<br>%3").arg(switchTierName(s.tier, t.fabric), rail, where));
    } else {  // a cable or a NIC
        m_title->setText(qtText(partName(t, m_part)));
        m_details->setText(m_part.kind == ComponentKind::Link ? tr("cable") : tr("NIC"));
    }
    const std::int64_t start = m_run->info.startEpochNs;
    for (std::int32_t g : gpus)
        if (const auto late = m_lateByGpu.find(g); late != m_lateByGpu.end()) {
            auto* item = new QListWidgetItem(tr("late rank %1 in the traced collectives: %2").arg(late->second.rank).arg(qtText(late->second.text)), m_history);
            item->setData(Qt::UserRole, QVariant::fromValue<Nanos>(late->second.worst));
        }
    const Incident* lastIncident = nullptr;  // of this part's failures, the latest: what to check next
    for (const Failure& f : m_run->failures) {
        const bool mine = (m_part.kind == ComponentKind::Switch || m_part.kind == ComponentKind::Link) ? f.component == m_part : touches(f, gpus);
        if (!mine) continue;
        const auto index = static_cast<int>(&f - m_run->failures.data());
        for (const Incident& inc : m_incidents)
            if (inc.failure == index && (!lastIncident || inc.begin >= lastIncident->begin)) lastIncident = &inc;
        QString text = tr("%1  failed: %2 — %3").arg(qtText(formatWallTime(start, f.time)), qtText(incidentCauseLabel(f.cause, &f)), qtText(f.detail));
        // Who, on a line of its own: in the evidence it is buried at the end of a long line.
        if (const std::string who = ranksOfFailureText(f.ranks, f.suspectRanks, suspectReasonOf(f)); !who.empty()) text += "\n    " + qtText(who);
        auto* item = new QListWidgetItem(text, m_history);
        item->setData(Qt::UserRole, QVariant::fromValue<Nanos>(f.time));
    }
    for (const StragglerEpisode& s : m_run->stragglers) {
        if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end()) continue;
        auto* item = new QListWidgetItem(tr("%1  straggling %2 for %3, %4% slower (%5)")
                                             .arg(qtText(formatWallTime(start, s.begin)), qtText(t.gpuName(s.gpu)), qtText(formatDuration(s.end - s.begin)))
                                             .arg(static_cast<int>((s.slowdown - 1) * 100 + 0.5))
                                             .arg(qtText(s.cause)),
                                         m_history);
        item->setData(Qt::UserRole, QVariant::fromValue<Nanos>(s.begin));
    }
    if (m_history->count() == 0) {
        const auto& untraced = m_run->untracedGpus;
        const bool unknown = !gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [&](std::int32_t g) {
            return std::binary_search(untraced.begin(), untraced.end(), g);
        });
        m_history->addItem(unknown ? tr("No trace covers %1: no data on how %2 kept pace.").arg(gpus.size() == 1 ? tr("this GPU") : tr("these GPUs"), gpus.size() == 1 ? tr("it") : tr("they"))
                                   : tr("No failures or straggler episodes in this run."));
    }
    const std::vector<NextCheck> checks = lastIncident ? nextChecks(*lastIncident, *m_run) : std::vector<NextCheck>{};
    m_nextChecks->setText(nextChecksHtml(checks));
    m_nextChecks->setVisible(!checks.empty());
    fillNow();
    fillBlastRadius();
    fillHang();
    fillMetric();
}

void InspectorView::fillMetric() {
    const bool shown = m_run && m_part.kind == ComponentKind::Gpu && m_metricShown >= 0;
    m_chart->setVisible(shown);
    if (!shown) return m_chart->clear();
    m_chart->showReadings(m_run.get(), m_part.index, m_metricShown);
    m_chart->setCursor(m_time);
}

void InspectorView::fillHang() {
    m_hang->hide();
    if (!m_run || !m_run->hang || m_part.kind != ComponentKind::Gpu) return;
    const std::int32_t rank = rankOnGpu(*m_run, m_part.index);
    if (rank < 0) return;
    const std::optional<RankInHang> part = rankInHang(*m_run, rank);
    if (!part) return;
    m_hang->setText(tr("Rank %1 %2 in the hang: %3. <a href=\"%1\">Show the hang</a>")
                        .arg(rank)
                        .arg(part->culprit ? tr("is the culprit") : tr("waits"))
                        .arg(qtText(hangOriginText(*m_run->hang, *part->origin)).toHtmlEscaped()));
    m_hang->show();
}

void InspectorView::fillBlastRadius() {
    // A GPU takes out only itself: the list is for the parts whose failure reaches further.
    const bool reaches = m_part.kind == ComponentKind::Switch || m_part.kind == ComponentKind::Host ||
                         m_part.kind == ComponentKind::Link || m_part.kind == ComponentKind::Nic;
    m_blast->setVisible(reaches && m_run);
    if (!reaches || !m_run) return m_blast->clear();
    const BlastRadius radius = blastRadius(m_run->topology, m_part);
    std::string text = blastRadiusToText(m_run->topology, radius, 4);
    if (const std::string traffic = trafficThroughText(*m_run, m_part); !traffic.empty()) text += "  " + traffic + "\n";
    m_blast->setText(QString::fromStdString(text).trimmed());
}

}  // namespace faultline
