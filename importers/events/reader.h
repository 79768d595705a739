#pragma once
// A reader of one file format: its name (for --format and reports), what it reads, and the
// function that reads one file into the import's context. Each family lists its own readers
// (pytorch/readers.h, console/readers.h, ...); importers/formats.cpp gathers them.
#include "importers/events/import_context.h"

#include "model/topology.h"

#include <string>
#include <string_view>

namespace faultline {

struct FormatInfo {
    std::string_view name;
    std::string_view description;
    void (*import)(const std::string& path, ImportContext& ctx);
    // Reads the file from its bytes, already read whole (a small plain file), where the
    // reader would read it whole anyway: a folder of thousands of dumps opens each once.
    void (*importBytes)(const std::string& path, std::string_view data, ImportContext& ctx) = nullptr;
};

// Topology readers hand their result here; a second topology file is an error.
void setImportedTopology(Topology topology, const std::string& path, ImportContext& ctx);

}  // namespace faultline
