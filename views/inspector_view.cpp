#include "inspector_view.h"

#include "model/format.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString rackPlace(const Topology& t, std::int32_t rack) {
    const Rack& r = t.racks[static_cast<std::size_t>(rack)];
    return QObject::tr("zone %1, row %2, rack %3 (position %4)")
        .arg(q(t.zones[static_cast<std::size_t>(r.zone)].name))
        .arg(r.row)
        .arg(q(r.name))
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
      m_history(new QListWidget(this)) {
    setObjectName("inspector");
    m_find->setObjectName("findPart");
    m_find->setPlaceholderText(tr("Find a GPU, host or switch by name"));
    m_find->setClearButtonEnabled(true);
    m_title->setObjectName("inspectorTitle");
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setObjectName("inspectorDetails");
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_history->setObjectName("inspectorHistory");
    m_history->setWordWrap(true);
    setMinimumWidth(240);
    setMaximumWidth(340);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 4, 4);
    layout->addWidget(m_find);
    layout->addWidget(m_title);
    layout->addWidget(m_details);
    layout->addWidget(m_history, 1);
    connect(m_find, &QLineEdit::returnPressed, this, &InspectorView::search);
    fill();
}

void InspectorView::setRun(std::shared_ptr<const Run> run) {
    m_run = std::move(run);
    m_part = {};
    fill();
}

void InspectorView::setTime(Nanos) {}

void InspectorView::showPart(const ComponentRef& part) {
    m_part = part;
    fill();
}

void InspectorView::search() {
    if (!m_run) return;
    const auto part = findPart(m_run->topology, m_find->text().trimmed().toStdString());
    if (!part) {
        m_part = {};
        fill();
        m_title->setText(tr("Nothing named “%1”").arg(m_find->text().trimmed()));
        return;
    }
    showPart(*part);
    emit found(*part);
}

void InspectorView::fill() {
    m_history->clear();
    if (!m_run || m_part.kind == ComponentKind::None) {
        m_title->setText(tr("Click a GPU, host or switch"));
        m_details->clear();
        return;
    }
    const Topology& t = m_run->topology;
    std::vector<std::int32_t> gpus;
    const auto i = static_cast<std::size_t>(m_part.index);
    if (m_part.kind == ComponentKind::Gpu) {
        const Gpu& g = t.gpus[i];
        const Host& h = t.hosts[static_cast<std::size_t>(g.host)];
        m_title->setText(q(t.gpuName(m_part.index)));
        m_details->setText(tr("GPU %1 of host %2<br>%3<br>PCI bus id %4")
                               .arg(g.index).arg(q(h.name)).arg(rackPlace(t, h.rack)).arg(q(g.pciBusId)));
        gpus = {m_part.index};
    } else if (m_part.kind == ComponentKind::Host) {
        const Host& h = t.hosts[i];
        m_title->setText(q(h.name));
        m_details->setText(tr("host with %1 GPUs<br>%2").arg(h.gpuCount).arg(rackPlace(t, h.rack)));
        gpus = t.gpusOfHost(m_part.index);
    } else if (m_part.kind == ComponentKind::Switch) {
        const Switch& s = t.switches[i];
        m_title->setText(q(s.name));
        QString where = s.rack >= 0 ? rackPlace(t, s.rack) : s.zone >= 0 ? tr("zone %1").arg(q(t.zones[static_cast<std::size_t>(s.zone)].name)) : tr("joins all zones");
        m_details->setText(tr("%1 switch<br>%2").arg(switchTierName(s.tier), where));
    }
    const std::int64_t start = m_run->info.startEpochNs;
    for (const Failure& f : m_run->failures) {
        const bool mine = (m_part.kind == ComponentKind::Switch) ? f.component == m_part : touches(f, gpus);
        if (!mine) continue;
        m_history->addItem(tr("%1  failed: %2 — %3")
                               .arg(q(formatWallTime(start, f.time)), q(std::string(rootCauseLabel(f.cause))), q(f.detail)));
    }
    for (const StragglerEpisode& s : m_run->stragglers) {
        if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end()) continue;
        m_history->addItem(tr("%1  straggling %2 for %3, %4% slower (%5)")
                               .arg(q(formatWallTime(start, s.begin)), q(t.gpuName(s.gpu)), q(formatDuration(s.end - s.begin)))
                               .arg(static_cast<int>((s.slowdown - 1) * 100 + 0.5))
                               .arg(q(s.cause)));
    }
    if (m_history->count() == 0) m_history->addItem(tr("No failures or straggler episodes in this run."));
}

}  // namespace faultline
