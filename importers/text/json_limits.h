#pragma once
// How deep JSON may nest before a reader refuses it: no importer's data nests that deep, and a
// DOM of millions of levels costs gigabytes. One limit for the DOM parser and the pull reader.
namespace faultline {

inline constexpr int kMaxJsonDepth = 512;

}  // namespace faultline
