#pragma once
// A safe reader for Python pickles that hold only data (dicts, lists, tuples, strings,
// numbers, None, booleans), as PyTorch writes its NCCL Flight Recorder dumps. Any opcode
// that would import a module, call a function or build an object (GLOBAL, STACK_GLOBAL,
// REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, PERSID, ...) is refused with an Error naming the
// byte offset, before anything is done with it. The result is JSON, so the pickle and the
// JSON dump variant share one importer.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace faultline {

// `name` names the data in messages ("FILE: byte N: ...").
nlohmann::json readPickle(std::string_view data, const std::string& name);

// True when `data` starts like a pickle of protocol 2 or later (PROTO opcode).
bool looksLikePickle(std::string_view data);

}  // namespace faultline
