#pragma once
// Whether this process can draw with OpenGL (the 3D views need it): a context made current on
// an offscreen surface. False on Qt's offscreen platform with no display, where VTK would
// crash on its first frame. Probed once, after the QGuiApplication exists.

namespace faultline {

bool openGlAvailable();

}  // namespace faultline
