#include "help_windows.h"
#include "widgets/qt_text.h"

#include "cli/build_info.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QIcon>
#include <QImage>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <vtkVersion.h>

namespace faultline {

namespace {

QTableWidget* makeTable(const QStringList& headers, const std::vector<QStringList>& rows, QWidget* parent) {
    auto* table = new QTableWidget(static_cast<int>(rows.size()), static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        for (int c = 0; c < static_cast<int>(headers.size()); ++c) table->setItem(r, c, new QTableWidgetItem(rows[r].value(c)));
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

// The width that shows every column of the table whole: its columns, frame and scroll bar.
int tableContentWidth(const QTableWidget& table) {
    int width = 2 * table.frameWidth() + table.verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < table.columnCount(); ++c) width += std::max(static_cast<const QAbstractItemView&>(table).sizeHintForColumn(c), table.horizontalHeader()->sectionSizeHint(c));
    return width;
}

// A dialog as wide as its table needs (no column cut), within the screen it opens on.
void fitToTable(QDialog& dialog, const QTableWidget& table, int height) {
    const int margins = dialog.layout() ? dialog.layout()->contentsMargins().left() + dialog.layout()->contentsMargins().right() : 0;
    int width = std::max(620, tableContentWidth(table) + margins);
    if (const QScreen* screen = dialog.screen()) {
        width = std::min(width, screen->availableGeometry().width() * 9 / 10);
        height = std::min(height, screen->availableGeometry().height() * 9 / 10);
    }
    dialog.resize(width, height);
}

// The README's screenshots are 1600 pixels wide: shown to fit the window, not beside it.
class DocumentationBrowser : public QTextBrowser {
public:
    using QTextBrowser::QTextBrowser;
    QVariant loadResource(int type, const QUrl& name) override {
        QVariant resource = QTextBrowser::loadResource(type, name);
        if (type != QTextDocument::ImageResource) return resource;
        QImage image = resource.value<QImage>();
        if (image.isNull()) image.loadFromData(resource.toByteArray());
        const int width = 860;
        if (image.isNull() || image.width() <= width) return resource;
        return image.scaledToWidth(width, Qt::SmoothTransformation);
    }
};

}  // namespace

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setObjectName("aboutDialog");
    setWindowTitle(tr("About Faultline"));
    auto* layout = new QVBoxLayout(this);
    auto* header = new QHBoxLayout;
    auto* icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    header->addWidget(icon);
    auto* title = new QLabel(this);
    title->setObjectName("aboutTitle");
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title->setText(tr("<h2>Faultline %1</h2><p>Replays and explains large-cluster training runs: failures, stragglers, "
                      "downtime and checkpoints.</p><p>Build: %2<br>Licence: %3</p>")
                       .arg(faultlineVersion(), qtText(buildDescription()).toHtmlEscaped(), FAULTLINE_LICENSE));
    title->setWordWrap(true);
    header->addWidget(title, 1);
    layout->addLayout(header);
    layout->addWidget(new QLabel(tr("Faultline is built with these libraries, each under its own licence:"), this));

    std::vector<QStringList> rows = {
        {"Qt", qVersion(), "LGPL-3.0-only", "https://www.qt.io/licensing/open-source-lgpl-obligations"},
        {"VTK", vtkVersion::GetVTKVersion(), "BSD-3-Clause", "https://vtk.org/about/#license"},
    };
    for (const LibraryInfo& lib : coreLibraries()) rows.push_back({qtText(lib.name), qtText(lib.version), qtText(lib.licence), qtText(lib.url)});
    QTableWidget* libraries = makeTable({tr("Library"), tr("Version"), tr("Licence"), tr("Terms")}, rows, this);
    libraries->setObjectName("libraryTable");
    layout->addWidget(libraries);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* aboutQt = buttons->addButton(tr("About &Qt"), QDialogButtonBox::HelpRole);
    connect(aboutQt, &QPushButton::clicked, this, [this] { QMessageBox::aboutQt(this); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 420);
}

QString ShortcutEntry::keysText() const {
    if (!mouse.isEmpty()) return mouse;
    QStringList parts;
    for (const QKeySequence& k : keys) parts << k.toString(QKeySequence::NativeText);
    return parts.join(" / ");
}

std::vector<ShortcutEntry> keyboardShortcuts(const QWidget& window) {
    const QString everywhere = QObject::tr("Everywhere");
    const QString replay = QObject::tr("Replay");
    const QString view = QObject::tr("3D view");
    const QString mouse = QObject::tr("Mouse, 3D view");
    std::vector<ShortcutEntry> entries;
    // The menus' own shortcuts, read from the actions themselves.
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty()) continue;
        entries.push_back({action->shortcuts(), action->text().remove('&').remove("..."), QObject::tr("Menu")});
    }
    entries.push_back({{QKeySequence(Qt::Key_N)}, QObject::tr("Next incident"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_P)}, QObject::tr("Previous incident"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_Space)}, QObject::tr("Play or pause the replay"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Period)}, QObject::tr("One training step forward"), replay});
    entries.push_back({{QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Comma)}, QObject::tr("One training step back"), replay});
    entries.push_back({{QKeySequence(Qt::Key_BracketRight)}, QObject::tr("Next event"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_BracketLeft)}, QObject::tr("Previous event"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_PageDown)}, QObject::tr("Next incident"), replay});
    entries.push_back({{QKeySequence(Qt::Key_PageUp)}, QObject::tr("Previous incident"), replay});
    entries.push_back({{QKeySequence(Qt::Key_F), QKeySequence(Qt::Key_Home)}, QObject::tr("Fit the whole cluster in view"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_T)}, QObject::tr("Look from the top"), everywhere});
    entries.push_back({{QKeySequence(Qt::Key_Z)}, QObject::tr("Zoom to the rack of what is selected"), everywhere});
    entries.push_back({{QKeySequence(Qt::SHIFT | Qt::Key_Left), QKeySequence(Qt::SHIFT | Qt::Key_Right)}, QObject::tr("Turn around the cluster"), view});
    entries.push_back({{QKeySequence(Qt::Key_Up), QKeySequence(Qt::Key_Down)}, QObject::tr("Tilt the camera"), view});
    entries.push_back({{QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}, QObject::tr("Zoom in"), view});
    entries.push_back({{QKeySequence(Qt::Key_Minus)}, QObject::tr("Zoom out"), view});
    // Nine keys each, shown as one line (the text stands in for the list of keys).
    QList<QKeySequence> saveKeys, goKeys;
    for (int n = 1; n <= 9; ++n) {
        saveKeys << QKeySequence(Qt::CTRL | Qt::SHIFT | static_cast<Qt::Key>(Qt::Key_0 + n));
        goKeys << QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + n));
    }
    entries.push_back({saveKeys, QObject::tr("Save the camera as viewpoint 1 to 9 (View > Viewpoints)"), everywhere, QObject::tr("Ctrl+Shift+1 … 9")});
    entries.push_back({goKeys, QObject::tr("Fly to saved viewpoint 1 to 9"), everywhere, QObject::tr("Ctrl+1 … 9")});
    entries.push_back({{}, QObject::tr("Orbit (about the selection, when there is one)"), mouse, QObject::tr("Drag")});
    entries.push_back({{}, QObject::tr("Pan"), mouse, QObject::tr("Middle-drag / Shift+drag")});
    entries.push_back({{}, QObject::tr("Zoom towards the cursor"), mouse, QObject::tr("Wheel")});
    entries.push_back({{}, QObject::tr("Select a GPU, host or switch (a switch shows what it would cut off)"), mouse, QObject::tr("Click")});
    return entries;
}

ShortcutsWindow::ShortcutsWindow(const QWidget& window, QWidget* parent) : QDialog(parent) {
    setObjectName("shortcutsWindow");
    setWindowTitle(tr("Keyboard Shortcuts"));
    std::vector<QStringList> rows;
    for (const ShortcutEntry& e : keyboardShortcuts(window)) rows.push_back({e.keysText(), e.action, e.where});
    auto* layout = new QVBoxLayout(this);
    QTableWidget* table = makeTable({tr("Keys"), tr("Action"), tr("Where")}, rows, this);
    table->setObjectName("shortcutsTable");
    layout->addWidget(table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    fitToTable(*this, *table, 640);
}

QString documentationDir() {
    const QString dir = QDir::cleanPath(QCoreApplication::applicationDirPath() + "/" FAULTLINE_BIN_TO_DATA "/doc/faultline");
    return QFileInfo::exists(dir + "/README.md") ? dir : QString();
}

DocumentationWindow::DocumentationWindow(const QString& dir, QWidget* parent) : QDialog(parent), m_browser(new DocumentationBrowser(this)) {
    setObjectName("documentationWindow");
    setWindowTitle(tr("Faultline Documentation"));
    m_browser->setObjectName("documentationBrowser");
    m_browser->setOpenExternalLinks(true);  // web links to the browser; the docs' own links here
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* back = buttons->addButton(tr("&Back"), QDialogButtonBox::ActionRole);
    QPushButton* home = buttons->addButton(tr("&Contents"), QDialogButtonBox::ActionRole);
    QPushButton* folder = buttons->addButton(tr("Open &Folder"), QDialogButtonBox::ActionRole);
    connect(back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    back->setEnabled(false);
    connect(home, &QPushButton::clicked, m_browser, &QTextBrowser::home);
    connect(folder, &QPushButton::clicked, this, [dir] { QDesktopServices::openUrl(QUrl::fromLocalFile(dir)); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    if (dir.isEmpty()) {
        m_browser->setPlainText(tr("The documentation is not installed beside this program (looked in %1). It is in the "
                                   "source tree's README.md and docs/ folder.")
                                    .arg(QDir::cleanPath(QCoreApplication::applicationDirPath() + "/" FAULTLINE_BIN_TO_DATA "/doc/faultline")));
        home->setEnabled(false);
        folder->setEnabled(false);
    } else {
        m_browser->setSearchPaths({dir, dir + "/docs"});
        m_browser->setSource(QUrl::fromLocalFile(dir + "/README.md"), QTextDocument::MarkdownResource);
    }
    resize(900, 760);
}

}  // namespace faultline
