#pragma once
// How the 3D view's renderer draws beyond plain shading: smooth edges (FXAA) and ambient
// occlusion (screen-space, VTK's SSAO pass: the creases between cabinets, trays and the
// floor darken, so that the hall reads as solid). Each on its own or both; both off is
// VTK's plain path. Knows nothing of Qt.
#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkRenderer;
class vtkRenderPass;

namespace faultline {

class ScenePasses {
public:
    explicit ScenePasses(vtkRenderer* renderer);
    ~ScenePasses();
    ScenePasses(const ScenePasses&) = delete;
    ScenePasses& operator=(const ScenePasses&) = delete;

    void setSmoothEdges(bool on);
    bool smoothEdges() const { return m_smoothEdges; }
    void setAmbientOcclusion(bool on);
    bool ambientOcclusion() const { return m_ambientOcclusion; }
    // How far (world units) a point looks for what shades it: about a rack's depth.
    void setOcclusionRadius(double radius);
    // Takes in actors added since (a new run's scene): call after adding them.
    void refresh() { apply(); }
    // Takes in actors the scene added on its own (rows built when first seen) before a frame.
    void takeInNewActors();

private:
    void apply();
    void lightForOcclusion(bool on);

    vtkRenderer* m_renderer;
    vtkSmartPointer<vtkRenderPass> m_pass;
    bool m_smoothEdges = false;
    bool m_ambientOcclusion = false;
    double m_radius = 1.0;
    std::vector<vtkSmartPointer<vtkActor>> m_relit;  // unlit actors lit for the occlusion
    int m_actorsSeen = 0;
};

}  // namespace faultline
