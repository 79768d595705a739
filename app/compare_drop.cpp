#include "compare_drop.h"

#include <QDropEvent>
#include <QMimeData>
#include <QTimer>
#include <QWidget>

namespace faultline {

namespace {

class CompareDrop : public QObject {
public:
    CompareDrop(QWidget* window, std::function<void(const QString&)> compare) : QObject(window), m_compare(std::move(compare)) {
        window->setAcceptDrops(true);
        window->installEventFilter(this);  // installed after the importer's, so asked first
    }

    // The run file a drop carries when Ctrl is held; empty otherwise.
    static QString runFile(const QMimeData* mime, Qt::KeyboardModifiers modifiers) {
        if (!(modifiers & Qt::ControlModifier) || !mime || !mime->hasUrls() || mime->urls().size() != 1) return {};
        const QUrl url = mime->urls().front();
        return url.isLocalFile() && url.toLocalFile().endsWith(".faultline") ? url.toLocalFile() : QString();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
            auto* e = static_cast<QDragMoveEvent*>(event);
            if (!runFile(e->mimeData(), e->modifiers()).isEmpty()) {
                e->acceptProposedAction();
                return true;
            }
        } else if (event->type() == QEvent::Drop) {
            auto* e = static_cast<QDropEvent*>(event);
            const QString path = runFile(e->mimeData(), e->modifiers());
            if (!path.isEmpty()) {
                e->acceptProposedAction();
                QTimer::singleShot(0, this, [this, path] { m_compare(path); });
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void(const QString&)> m_compare;
};

}  // namespace

void installCompareDrop(QWidget* window, std::function<void(const QString&)> compare) { new CompareDrop(window, std::move(compare)); }


}  // namespace faultline
