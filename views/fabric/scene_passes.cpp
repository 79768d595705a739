#include "views/fabric/scene_passes.h"

#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkOpenGLFXAAPass.h>
#include <vtkProperty.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderer.h>
#include <vtkSSAOPass.h>

namespace faultline {

namespace {
// Samples per pixel, blurred after: 16 left the cabinets' sides speckled and saved only a
// fifth of the pass's time on a software rasteriser (most of it is the pass's fixed work).
constexpr int kKernelSize = 32;
}  // namespace

ScenePasses::ScenePasses(vtkRenderer* renderer) : m_renderer(renderer) {}

ScenePasses::~ScenePasses() {
    if (m_pass) m_renderer->SetPass(nullptr);
}

void ScenePasses::setSmoothEdges(bool on) {
    m_smoothEdges = on;
    apply();
}

void ScenePasses::setAmbientOcclusion(bool on) {
    m_ambientOcclusion = on;
    apply();
}

void ScenePasses::setOcclusionRadius(double radius) {
    if (radius == m_radius) return;
    m_radius = radius;
    apply();
}

void ScenePasses::lightForOcclusion(bool on) {
    // VTK's SSAO reads each fragment's position and normal from the lighting code, which an
    // unlit actor (the hall's shades are in its colours) does not have: light those with the
    // ambient term alone, which leaves their colours as they were.
    for (auto& actor : m_relit) actor->GetProperty()->LightingOff();
    m_relit.clear();
    if (!on) return;
    vtkActorCollection* actors = m_renderer->GetActors();
    m_actorsSeen = actors->GetNumberOfItems();
    actors->InitTraversal();
    while (vtkActor* actor = actors->GetNextActor()) {
        vtkProperty* p = actor->GetProperty();
        if (p->GetLighting()) continue;
        p->LightingOn();
        p->SetAmbient(1.0);
        p->SetDiffuse(0.0);
        p->SetSpecular(0.0);
        m_relit.emplace_back(actor);
    }
}

void ScenePasses::takeInNewActors() {
    if (m_ambientOcclusion && m_renderer->GetActors()->GetNumberOfItems() != m_actorsSeen) apply();
}

void ScenePasses::apply() {
    lightForOcclusion(m_ambientOcclusion);
    if (!m_ambientOcclusion) {
        // The renderer's own FXAA: it leaves the text overlays sharp.
        m_pass = nullptr;
        m_renderer->SetPass(nullptr);
        m_renderer->SetUseFXAA(m_smoothEdges);
        return;
    }
    // With a pass of its own the renderer skips its FXAA: chain it after the occlusion.
    m_renderer->SetUseFXAA(false);
    auto steps = vtkSmartPointer<vtkRenderStepsPass>::New();
    auto ssao = vtkSmartPointer<vtkSSAOPass>::New();
    ssao->SetDelegatePass(steps);
    ssao->SetRadius(m_radius);
    ssao->SetBias(0.01 * m_radius);
    ssao->SetKernelSize(kKernelSize);
    ssao->BlurOn();
    if (m_smoothEdges) {
        auto fxaa = vtkSmartPointer<vtkOpenGLFXAAPass>::New();
        fxaa->SetDelegatePass(ssao);
        m_pass = fxaa;
    } else {
        m_pass = ssao;
    }
    m_renderer->SetPass(m_pass);
}

}  // namespace faultline
