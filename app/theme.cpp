#include "theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace faultline {

void applyTheme(Theme theme) {
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    if (theme == Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    const QColor window(45, 47, 51), base(30, 31, 34), text(225, 226, 228), dim(140, 142, 146);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, dim);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Mid, QColor(70, 72, 76));
    p.setColor(QPalette::Highlight, QColor(60, 130, 230));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Disabled, QPalette::Text, dim);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, dim);
    QApplication::setPalette(p);
}

Theme themeFromName(const QString& name) { return name == "dark" ? Theme::Dark : Theme::Light; }
QString themeName(Theme theme) { return theme == Theme::Dark ? "dark" : "light"; }

}  // namespace faultline
