#pragma once
// The pickle reader's opcode loop, apart from the document it fills (pickle_reader.h says
// what is read and what is refused).
#include "importers/pytorch/pickle_reader.h"

#include <cstdint>
#include <string>

namespace faultline {

// Reads doc.data into doc's values, containers made contiguous; the root value's id. Throws
// Error ("NAME: byte N: ...") for anything that is not a data pickle.
std::uint32_t unpickle(PickleData& doc, const std::string& name);

}  // namespace faultline
