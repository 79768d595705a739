#include "exports/pdf_layout.h"

#include <QFontMetrics>
#include <QObject>
#include <QPageLayout>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

constexpr int kDpi = 96;  // layout in 96-dpi pixels; text and vectors stay resolution-free
constexpr int kFooter = 28;
const QColor kAccent(20, 70, 140);
constexpr int kFactsShare = 60;  // per cent of the width the facts take beside an image
constexpr int kBesideGap = 14;

QFont font(int pixelSize, bool bold = false) {
    QFont f("DejaVu Sans");
    f.setPixelSize(pixelSize);
    f.setBold(bold);
    // No ligatures: "ff" stays two letters, so searching and copying the PDF's text finds
    // "effective" as typed.
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

QFont headingFont(int level) { return font(level == 1 ? 22 : 16, true); }
int headingGap(int level) { return level == 1 ? 14 : 10; }

}  // namespace

PdfLayout::PdfLayout(QIODevice* device, QPageSize::PageSizeId page, const QString& title, const QString& footer)
    : m_writer(device), m_footer(footer) {
    m_writer.setResolution(kDpi);
    m_writer.setPageLayout(QPageLayout(QPageSize(page), QPageLayout::Portrait, QMarginsF(16, 16, 16, 14), QPageLayout::Millimeter));
    m_writer.setTitle(title);
    m_writer.setCreator("Faultline");
    m_ok = m_painter.begin(&m_writer);
    if (!m_ok) return;
    m_painter.setRenderHint(QPainter::Antialiasing);
    m_width = m_writer.width();
    m_height = m_writer.height();
    m_bottom = m_height - kFooter;
}

int PdfLayout::finish() {
    if (!m_ok) return 0;
    drawFooter();
    m_painter.end();
    return m_page;
}

void PdfLayout::drawFooter() {
    m_painter.save();
    m_painter.setFont(font(10));
    m_painter.setPen(QColor(110, 110, 110));
    const QRect r(0, m_height - kFooter + 8, m_width, kFooter - 8);
    m_painter.drawLine(0, r.top() - 4, m_width, r.top() - 4);
    m_painter.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, m_footer);
    m_painter.drawText(r, Qt::AlignRight | Qt::AlignVCenter, QString("page %1").arg(m_page));
    m_painter.restore();
}

void PdfLayout::newPage() {
    drawFooter();
    m_writer.newPage();
    ++m_page;
    m_y = 0;
}

void PdfLayout::ensure(int height) {
    if (m_y > 0 && m_y + height > m_bottom) newPage();
}

int PdfLayout::textHeight(const QString& text, const QFont& f, int width) const {
    return QFontMetrics(f, &m_writer).boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text).height();
}

void PdfLayout::title(const QString& text, const QString& subtitle) {
    m_y = m_height / 5;
    m_painter.setFont(font(34, true));
    m_painter.setPen(kAccent);
    const int h = textHeight(text, font(34, true), m_width);
    m_painter.drawText(QRect(0, m_y, m_width, h), Qt::TextWordWrap, text);
    m_y += h + 12;
    m_painter.fillRect(QRect(0, m_y, m_width / 3, 4), QColor(255, 180, 0));
    m_y += 24;
    paragraph(subtitle, QColor(60, 60, 60), 16);
    m_y += 30;
}

void PdfLayout::heading(const QString& text, int level) {
    drawHeading(text, level);
    m_section = text;
}

void PdfLayout::drawHeading(const QString& text, int level) {
    const QFont f = headingFont(level);
    const int h = textHeight(text, f, m_width);
    ensure(h + (level == 1 ? 120 : 60));  // never a heading alone at the foot of a page
    m_y += m_y > 0 ? headingGap(level) : 0;
    m_painter.setFont(f);
    m_painter.setPen(level == 1 ? kAccent : QColor(30, 30, 30));
    m_painter.drawText(QRect(0, m_y, m_width, h), Qt::TextWordWrap, text);
    m_y += h + 6;
    if (level == 1) {
        m_painter.setPen(QPen(QColor(200, 205, 215), 1));
        m_painter.drawLine(0, m_y, m_width, m_y);
        m_y += 8;
    }
}

int PdfLayout::headingHeight(const QString& text, int level) const {
    return headingGap(level) + textHeight(text, headingFont(level), m_width) + 6 + (level == 1 ? 8 : 0);
}

void PdfLayout::paragraph(const QString& text, const QColor& colour, int pixelSize) {
    const QFont f = font(pixelSize);
    // Paragraph by paragraph, so long notes break across pages.
    for (const QString& part : text.split('\n')) {
        const int h = std::max(textHeight(part, f, m_width), QFontMetrics(f, &m_writer).height());
        ensure(h);
        m_painter.setFont(f);
        m_painter.setPen(colour);
        m_painter.drawText(QRect(0, m_y, m_width, h), Qt::TextWordWrap, part);
        m_y += h;
    }
    m_y += 6;
}

int PdfLayout::paragraphHeight(const QString& text, int pixelSize) const {
    const QFont f = font(pixelSize);
    int h = 6;
    for (const QString& part : text.split('\n')) h += std::max(textHeight(part, f, m_width), QFontMetrics(f, &m_writer).height());
    return h;
}

void PdfLayout::tiles(const std::vector<std::pair<QString, QString>>& figures) {
    const int columns = 3, gap = 12, tileH = 86;
    const int tileW = (m_width - gap * (columns - 1)) / columns;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const int col = static_cast<int>(i % columns);
        if (col == 0) ensure(tileH + gap);
        const QRect r(col * (tileW + gap), m_y, tileW, tileH);
        m_painter.fillRect(r, QColor(240, 244, 250));
        m_painter.fillRect(QRect(r.left(), r.top(), 4, r.height()), kAccent);
        m_painter.setPen(QColor(90, 90, 90));
        m_painter.setFont(font(12));
        m_painter.drawText(r.adjusted(14, 8, -8, 0), Qt::AlignLeft | Qt::AlignTop, figures[i].first);
        m_painter.setPen(QColor(20, 20, 20));
        QFont big = font(figures[i].second.size() > 16 ? 15 : 24, true);
        m_painter.setFont(big);
        m_painter.drawText(r.adjusted(14, 28, -8, -6), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, figures[i].second);
        if (col == columns - 1 || i + 1 == figures.size()) m_y += tileH + gap;
    }
}

void PdfLayout::facts(const std::vector<std::pair<QString, QString>>& rows) {
    m_y = drawFacts(rows, m_width, true) + 8;
}

// A fact's label takes at most 30% of the page and 38% of the facts' width.
int PdfLayout::factLabelWidth(int width) const { return std::min(m_width * 30 / 100, width * 38 / 100); }

int PdfLayout::factRowHeight(const QString& label, const QString& value, int width) const {
    const int labelW = factLabelWidth(width);
    return std::max(textHeight(label, font(12, true), labelW - 8), textHeight(value, font(12), width - labelW)) + 4;
}

// Draws the rows from m_y in the left `width` pixels; returns where they end. With
// `mayBreak`, a row that does not fit opens a page; beside an image the caller has made room.
int PdfLayout::drawFacts(const std::vector<std::pair<QString, QString>>& rows, int width, bool mayBreak) {
    const int labelW = factLabelWidth(width);
    int y = m_y;
    for (const auto& [k, v] : rows) {
        const int h = factRowHeight(k, v, width);
        if (mayBreak) {
            m_y = y;
            ensure(h);
            y = m_y;
        }
        m_painter.setPen(QColor(70, 70, 70));
        m_painter.setFont(font(12, true));
        m_painter.drawText(QRect(0, y, labelW - 8, h), Qt::TextWordWrap, k);
        m_painter.setPen(QColor(20, 20, 20));
        m_painter.setFont(font(12));
        m_painter.drawText(QRect(labelW, y, width - labelW, h), Qt::TextWordWrap, v);
        y += h;
    }
    return y;
}

int PdfLayout::factsHeight(const std::vector<std::pair<QString, QString>>& rows, int width) const {
    int h = 0;
    for (const auto& [k, v] : rows) h += factRowHeight(k, v, width);
    return h;
}

// The image's part of the width: what the facts leave, less a gap.
QSize PdfLayout::besideImageSize(const QImage& image, int maxImageHeight) const {
    return image.size().scaled(m_width - m_width * kFactsShare / 100 - kBesideGap, maxImageHeight, Qt::KeepAspectRatio);
}

void PdfLayout::factsBeside(const std::vector<std::pair<QString, QString>>& rows, const QImage& image, int maxImageHeight) {
    if (image.isNull()) return facts(rows);
    const QSize s = besideImageSize(image, maxImageHeight);
    ensure(factsBesideHeight(rows, image, maxImageHeight));
    const int factsEnd = drawFacts(rows, m_width * kFactsShare / 100, false);
    m_painter.drawImage(QRect(m_width - s.width(), m_y, s.width(), s.height()), image);
    m_y = std::max(factsEnd, m_y + s.height()) + 8;
}

int PdfLayout::factsBesideHeight(const std::vector<std::pair<QString, QString>>& rows, const QImage& image, int maxImageHeight) const {
    if (image.isNull()) return factsHeight(rows, m_width) + 8;
    return std::max(factsHeight(rows, m_width * kFactsShare / 100), besideImageSize(image, maxImageHeight).height()) + 8;
}

std::vector<int> PdfLayout::columnEdges(const std::vector<double>& widths) const {
    std::vector<int> x(widths.size() + 1, 0);
    for (std::size_t i = 0; i < widths.size(); ++i) x[i + 1] = x[i] + static_cast<int>(std::lround(widths[i] * m_width));
    return x;
}

int PdfLayout::rowHeight(const QStringList& cells, const QFont& f, const std::vector<int>& x) const {
    int h = 0;
    for (int c = 0; c < cells.size() && c + 1 < static_cast<int>(x.size()); ++c)
        h = std::max(h, textHeight(cells[c], f, x[static_cast<std::size_t>(c) + 1] - x[static_cast<std::size_t>(c)] - 8));
    return h + 6;
}

void PdfLayout::table(const QStringList& header, const std::vector<QStringList>& rows, const std::vector<double>& widths,
                      const std::vector<bool>& rightAligned) {
    const std::vector<int> x = columnEdges(widths);
    const QFont headFont = font(11, true), cellFont = font(11);
    auto drawRow = [&](const QStringList& cells, const QFont& f, int h, bool head, bool shade) {
        if (head) m_painter.fillRect(QRect(0, m_y, m_width, h), QColor(225, 232, 242));
        else if (shade) m_painter.fillRect(QRect(0, m_y, m_width, h), QColor(247, 248, 250));
        m_painter.setFont(f);
        m_painter.setPen(QColor(20, 20, 20));
        for (int c = 0; c < cells.size() && c < static_cast<int>(widths.size()); ++c) {
            const auto i = static_cast<std::size_t>(c);
            const bool right = i < rightAligned.size() && rightAligned[i];
            m_painter.drawText(QRect(x[i] + 4, m_y + 3, x[i + 1] - x[i] - 8, h - 6),
                               Qt::TextWordWrap | (right ? Qt::AlignRight : Qt::AlignLeft), cells[c]);
        }
        m_y += h;
    };
    const int headH = rowHeight(header, headFont, x);
    ensure(headH * 3);
    drawRow(header, headFont, headH, true, false);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const int h = rowHeight(rows[r], cellFont, x);
        if (m_y + h > m_bottom) {
            newPage();
            // The section's heading and the header again: a page that opens on rows says what they are.
            if (!m_section.isEmpty()) drawHeading(QObject::tr("%1 (continued)").arg(m_section), 2);
            drawRow(header, headFont, headH, true, false);
        }
        drawRow(rows[r], cellFont, h, false, r % 2 == 1);
    }
    m_y += 10;
}

int PdfLayout::tableHeight(const QStringList& header, const std::vector<QStringList>& rows, const std::vector<double>& widths) const {
    const std::vector<int> x = columnEdges(widths);
    int h = rowHeight(header, font(11, true), x) + 10;
    for (const QStringList& row : rows) h += rowHeight(row, font(11), x);
    return h;
}

void PdfLayout::image(const QImage& image, int maxHeight) {
    if (image.isNull()) return;
    QSize s = image.size().scaled(m_width, maxHeight, Qt::KeepAspectRatio);
    ensure(s.height() + 6);
    if (s.height() > spaceLeft()) s = image.size().scaled(m_width, spaceLeft() - 6, Qt::KeepAspectRatio);
    m_painter.drawImage(QRect((m_width - s.width()) / 2, m_y, s.width(), s.height()), image);
    m_y += s.height() + 8;
}

void PdfLayout::picture(const QPicture& picture, QSize size, const QString& caption) {
    const double scale = std::min(1.0, static_cast<double>(m_width) / size.width());
    const int h = static_cast<int>(std::lround(size.height() * scale));
    const int captionH = caption.isEmpty() ? 0 : 22;
    ensure(h + captionH + 8);
    if (!caption.isEmpty()) {
        m_painter.setFont(font(12, true));
        m_painter.setPen(QColor(40, 40, 40));
        m_painter.drawText(QRect(0, m_y, m_width, captionH), Qt::AlignLeft | Qt::AlignVCenter, caption);
        m_y += captionH;
    }
    m_painter.save();
    m_painter.translate((m_width - size.width() * scale) / 2, m_y);
    m_painter.scale(scale, scale);
    m_painter.setClipRect(QRect(QPoint(0, 0), size));
    m_painter.drawPicture(0, 0, picture);
    m_painter.restore();
    m_y += h + 10;
}

}  // namespace faultline
