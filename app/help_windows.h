#pragma once
// Help menu windows: About (version, build, the libraries and their licences), Keyboard
// Shortcuts (every key the app answers to) and Documentation (the installed docs).
#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>

#include <vector>

class QTextBrowser;

namespace faultline {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);
};

struct ShortcutEntry {
    QList<QKeySequence> keys;  // each of the keys that do it
    QString action;            // what it does
    QString where;             // "Everywhere", "Replay", "3D view", "Mouse"
    QString mouse = {};        // for mouse gestures, which have no key sequence
    QString keysText() const;  // "Right / ." as shown
};

// The keys the replay, the 3D view's camera and the main window answer to, with the menu
// actions' shortcuts taken from `window`'s own actions, so the list cannot miss one.
std::vector<ShortcutEntry> keyboardShortcuts(const QWidget& window);

class ShortcutsWindow : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsWindow(const QWidget& window, QWidget* parent = nullptr);
};

// The folder Help > Documentation reads: share/doc/faultline beside the binary's bin/ (the
// install prefix, or the build tree, which mirrors it); empty when neither has it.
QString documentationDir();

class DocumentationWindow : public QDialog {
    Q_OBJECT
public:
    explicit DocumentationWindow(const QString& dir, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser;
};

}  // namespace faultline
