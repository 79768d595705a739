#pragma once
// The pictures the far meshes and the box meshes draw their colours from. Four bytes a texel,
// not three: OpenGL takes RGBA bytes into a texture as they are, where RGB ones are converted
// texel by texel, which on a software rasteriser cost milliseconds a frame for the fleet's
// halls (their texels change as the replay moves).
#include "views/gpu_palette.h"

#include <vtkImageData.h>
#include <vtkSmartPointer.h>

#include <algorithm>
#include <cstddef>

namespace faultline {

inline constexpr std::size_t kTexelBytes = 4;

// Sizes `image` to width x height texels, all opaque black: alpha stays 255 everywhere, so
// that nothing of the mesh shows through (the actor is also told it is opaque, which spares
// VTK scanning the alpha of every texel after each change).
inline void allocateOpaqueTexels(vtkImageData* image, int width, int height) {
    image->SetDimensions(width, height, 1);
    image->AllocateScalars(VTK_UNSIGNED_CHAR, static_cast<int>(kTexelBytes));
    constexpr unsigned char kOpaqueBlack[kTexelBytes] = {0, 0, 0, 255};
    auto* texels = static_cast<unsigned char*>(image->GetScalarPointer());
    const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    for (std::size_t i = 0; i < count; ++i) std::copy_n(kOpaqueBlack, kTexelBytes, texels + i * kTexelBytes);
}

// One texel's colour; its alpha is left opaque.
inline void setTexel(unsigned char* texel, const Rgb& colour) { std::copy(colour.begin(), colour.end(), texel); }

}  // namespace faultline
