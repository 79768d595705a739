#pragma once
// Flowing content onto PDF pages with QPainter: headings, paragraphs, two-column facts,
// tables that continue on the next page with their header, images and vector pictures,
// a footer on every page. Text stays text in the PDF (searchable, pdftotext reads it).
#include <QFont>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace faultline {

class PdfLayout {
public:
    // Writes into `device` (open for writing): see writeRenderedFile in exports/image_file.h.
    PdfLayout(QIODevice* device, QPageSize::PageSizeId page, const QString& title, const QString& footer);
    bool ok() const { return m_ok; }
    // Ends the document; returns the number of pages.
    int finish();

    int width() const { return m_width; }
    int spaceLeft() const { return m_bottom - m_y; }
    int pageHeight() const { return m_bottom; }  // the height text and pictures may take
    void newPage();
    void skip(int pixels) { m_y += pixels; }

    void title(const QString& text, const QString& subtitle);
    void heading(const QString& text, int level = 1);  // a level-1 heading opens no page of its own
    void paragraph(const QString& text, const QColor& colour = QColor(30, 30, 30), int pixelSize = 13);
    // Big figures in boxes, three a row: (label, value).
    void tiles(const std::vector<std::pair<QString, QString>>& figures);
    void facts(const std::vector<std::pair<QString, QString>>& rows);
    // The facts in the left part of the width and the image beside them on the right, so
    // that a section with a picture takes half a page rather than most of one.
    void factsBeside(const std::vector<std::pair<QString, QString>>& rows, const QImage& image, int maxImageHeight);
    // Column widths are shares of the width; numeric columns right-aligned. A table that runs
    // onto the next page continues there under its section's heading, marked "(continued)",
    // and its header row.
    void table(const QStringList& header, const std::vector<QStringList>& rows, const std::vector<double>& widths,
               const std::vector<bool>& rightAligned = {});
    void image(const QImage& image, int maxHeight);
    // A picture painted at `size`, scaled to the width: stays vector in the PDF.
    void picture(const QPicture& picture, QSize size, const QString& caption);

    // What each of the above would take, so that a caller can keep a section on one page.
    int headingHeight(const QString& text, int level = 1) const;
    int paragraphHeight(const QString& text, int pixelSize = 13) const;
    int factsBesideHeight(const std::vector<std::pair<QString, QString>>& rows, const QImage& image, int maxImageHeight) const;
    int tableHeight(const QStringList& header, const std::vector<QStringList>& rows, const std::vector<double>& widths) const;
    int factsHeight(const std::vector<std::pair<QString, QString>>& rows) const { return factsHeight(rows, m_width); }

private:
    void ensure(int height);
    void drawHeading(const QString& text, int level);
    void drawFooter();
    int textHeight(const QString& text, const QFont& font, int width) const;
    int factLabelWidth(int width) const;
    int factRowHeight(const QString& label, const QString& value, int width) const;
    int drawFacts(const std::vector<std::pair<QString, QString>>& rows, int width, bool mayBreak);
    int factsHeight(const std::vector<std::pair<QString, QString>>& rows, int width) const;
    QSize besideImageSize(const QImage& image, int maxImageHeight) const;
    std::vector<int> columnEdges(const std::vector<double>& widths) const;
    int rowHeight(const QStringList& cells, const QFont& font, const std::vector<int>& x) const;

    QPdfWriter m_writer;
    QPainter m_painter;
    bool m_ok = false;
    QString m_footer;
    QString m_section;  // the last heading drawn, repeated above a table's rows on a later page
    int m_width = 0, m_height = 0, m_bottom = 0, m_y = 0, m_page = 1;
};

}  // namespace faultline
