#pragma once
// Pictures written whole or not at all: into a file beside the target, renamed over it once
// complete (model/partial_file.h), in the format the target's name asks for (PNG by default).
#include "model/output_guard.h"

#include <QIODevice>
#include <QImage>
#include <QString>
#include <QStringList>

#include <functional>
#include <string>

namespace faultline {

// Writes `image` to `path`; throws Error naming the path.
void saveImageFile(const QImage& image, const QString& path);

// A file a Qt writer makes (QPdfWriter, QSvgGenerator, QImageWriter): `render` writes it into
// memory, then its bytes go to `path` with every count and the close checked (model/
// checked_write.h); Qt's writers do not say when a write on a full disk came up short.
// Throws Error naming `path` and the cause; `render` throws to abandon the file.
void writeRenderedFile(const std::string& path, const std::function<void(QIODevice& device)>& render);

// The kind of file a path names by its extension: .png, .svg, .pdf, .html, .mp4, .csv,
// .json, .faultline; PNG for anything else (what a picture is saved as).
OutputKind outputKindOfPath(const QString& path);

// checkOutput (model/output_guard.h) for the app's writers: the kind from the path's
// extension. Empty when `path` may be written, else why not.
QString outputRefusal(const QString& path, const QStringList& inputs, bool force = false);

}  // namespace faultline
