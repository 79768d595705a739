#include "exports/image_file.h"

#include "model/checked_write.h"
#include "model/error.h"
#include "model/partial_file.h"

#include <QBuffer>
#include <QFileInfo>

namespace faultline {

OutputKind outputKindOfPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "svg") return OutputKind::Svg;
    if (suffix == "pdf") return OutputKind::Pdf;
    if (suffix == "html" || suffix == "htm") return OutputKind::Html;
    if (suffix == "mp4") return OutputKind::Mp4;
    if (suffix == "csv") return OutputKind::Csv;
    if (suffix == "json") return OutputKind::Json;
    if (suffix == "faultline") return OutputKind::RunFile;
    return OutputKind::Png;
}

void saveImageFile(const QImage& image, const QString& path) {
    QByteArray format = QFileInfo(path).suffix().toUpper().toLatin1();
    if (format.isEmpty()) format = "PNG";
    writeThroughPartial(path.toStdString(), [&](const std::string& partial) {
        writeRenderedFile(partial, [&](QIODevice& device) {
            // The format is said, not guessed from a name.
            if (!image.save(&device, format.constData())) throw Error(path.toStdString() + ": cannot write " + format.toStdString());
        });
    });
}

void writeRenderedFile(const std::string& path, const std::function<void(QIODevice&)>& render) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    render(buffer);
    buffer.close();
    if (buffer.data().isEmpty()) throw Error(path + ": cannot write: nothing was drawn");
    writeFileBytes(path, std::string_view(buffer.data().constData(), static_cast<std::size_t>(buffer.data().size())));
}

QString outputRefusal(const QString& path, const QStringList& inputs, bool force) {
    std::vector<std::string> in;
    for (const QString& each : inputs) in.push_back(each.toStdString());
    try {
        checkOutput(path.toStdString(), outputKindOfPath(path), in, force);
        return {};
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
}

}  // namespace faultline
