#include "hang_window.h"

#include "analysis/hang_analysis.h"
#include "analysis/hang_lanes.h"
#include "analysis/incidents.h"
#include "views/hang_view.h"
#include "window_menus.h"

#include <QComboBox>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QShortcut>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline {

HangWindow::HangWindow(std::shared_ptr<const LoadedRun> run, QWidget* parent)
    : QWidget(parent, Qt::Window), m_run(std::move(run)), m_headline(new QLabel(this)), m_origins(new QComboBox(this)), m_view(new HangView(this)) {
    setObjectName("hangWindow");
    setWindowTitle(tr("Hang — %1").arg(QString::fromStdString(m_run->summary.name)));
    placeOnScreen();
    m_headline->setObjectName("hangHeadline");
    m_headline->setWordWrap(true);
    m_origins->setObjectName("hangOrigins");
    auto* layout = new QVBoxLayout(this);
    // The main window's File and Help, and Esc closes it as a secondary window does.
    auto* menus = new QMenuBar(this);
    addSharedMenus(menus, this);
    layout->setMenuBar(menus);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, &QWidget::close);
    escape->setObjectName("closeOnEscape");
    layout->addWidget(m_headline);
    layout->addWidget(m_origins);
    layout->addWidget(m_view, 1);
    const std::optional<HangReport>& hang = m_run->run.hang;
    if (hang)
        for (std::size_t i = 0; i < hang->origins.size(); ++i)
            m_origins->addItem(tr("Hang %1 of %2: %3").arg(i + 1).arg(hang->origins.size()).arg(QString::fromStdString(hangOriginText(*hang, hang->origins[i]))));
    m_origins->setVisible(m_origins->count() > 1);  // one hang needs no choice
    connect(m_origins, &QComboBox::currentIndexChanged, this, [this](int i) { showOrigin(i); });
    showOrigin(0);
}

void HangWindow::placeOnScreen() {
    // Over the window it was opened from, wholly on that screen's free area however small.
    const QWidget* from = parentWidget() ? parentWidget()->window() : nullptr;
    const QScreen* screen = from ? from->screen() : QGuiApplication::primaryScreen();
    const QRect free = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
    const QSize size(std::min(1100, free.width() * 9 / 10), std::min(640, free.height() * 9 / 10));
    resize(size);
    // Room for the frame the window manager adds (title bar, borders), which Qt knows only later.
    constexpr int kFrame = 40;
    QRect placed(QPoint(), size);
    placed.moveCenter(from ? from->frameGeometry().center() : free.center());
    placed.moveLeft(std::clamp(placed.left(), free.left(), std::max(free.left(), free.right() - size.width() - kFrame / 4)));
    placed.moveTop(std::clamp(placed.top(), free.top(), std::max(free.top(), free.bottom() - size.height() - kFrame)));
    move(placed.topLeft());
}

void HangWindow::showOrigin(int origin) {
    const std::optional<HangReport>& hang = m_run->run.hang;
    m_view->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->lanes, static_cast<std::size_t>(std::max(0, origin)));
    if (!hang || hang->origins.empty()) {
        m_headline->setText(tr("No hang in this run: it was imported from no NCCL Flight Recorder dumps, or they show every rank in step."));
        return;
    }
    const HangOrigin& o = hang->origins[static_cast<std::size_t>(std::clamp<int>(origin, 0, static_cast<int>(hang->origins.size()) - 1))];
    // Arrows are promised only where the view draws them: both ends' records in the dumps.
    const std::optional<HangLanes>& lanes = m_view->hangLanes();
    const bool arrows = lanes && std::any_of(lanes->flows.begin(), lanes->flows.end(), [](const HangFlow& f) { return f.fromRecord && f.toRecord; });
    const QString how = arrows ? tr("The arrows run from the collective each waiting rank is stuck in to the last one the culprit "
                                    "joined; the dashed line is when the first rank entered the collective the culprit never joined.")
                               : tr("Each lane says whether its rank is the culprit or waits for it (the dumps hold no records of "
                                    "the collectives to link them by arrows).");
    m_headline->setText(tr("<b>%1.</b> %2 From %3 Flight Recorder dumps.")
                            .arg(QString::fromStdString(hangOriginText(*hang, o)).toHtmlEscaped(), how)
                            .arg(hang->dumps));
}

void HangWindow::showRank(std::int32_t rank) {
    const std::optional<HangReport>& hang = m_run->run.hang;
    if (!hang) return;
    for (std::size_t i = 0; i < hang->origins.size(); ++i) {
        const HangOrigin& o = hang->origins[i];
        const bool inIt = std::count(o.culprits.begin(), o.culprits.end(), rank) + std::count(o.waiting.begin(), o.waiting.end(), rank) > 0;
        if (!inIt) continue;
        m_origins->setCurrentIndex(static_cast<int>(i));
        showOrigin(static_cast<int>(i));
        break;
    }
    if (const int lane = m_view->laneOfRank(rank); lane >= 0) m_view->scrollToLane(std::max(0, lane - 3));
}

}  // namespace faultline
