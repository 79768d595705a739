#pragma once
// Two fabric views whose cameras move together: orbit, pan or zoom one and the other follows.
// Each view first fits its own cluster; a move is carried over relative to that fitted
// framing, so clusters of different size and shape stay framed alike.
#include <QObject>

#include <array>

namespace faultline {

class FabricView;

class LinkedCameras : public QObject {
    Q_OBJECT
public:
    LinkedCameras(FabricView* a, FabricView* b, QObject* parent = nullptr);

    void setLinked(bool linked);  // on linking, B takes A's camera
    bool linked() const { return m_linked; }
    // New runs in the views: each fits its cluster again before moves are carried over.
    void reset();

private:
    struct Side {
        FabricView* view;
        unsigned long seen = 0;  // the camera's pose when last looked at, hashed
        std::array<double, 3> fitCentre{};
        double fitDistance = 1;
        bool fitted = false;
    };
    // At each frame of `from`: if its camera moved, move `to`'s the same way.
    void follow(Side& from, Side& to, bool force);

    Side m_a, m_b;
    bool m_linked = true;
    bool m_moving = false;
};

}  // namespace faultline
