#pragma once
// Small documents (sacct --json, Flight Recorder JSON, topology) are parsed whole: this reads
// one, decompressing gzip, with a size limit so a mislabelled huge file fails clearly.
#include <string>

namespace faultline {

std::string readWholeFile(const std::string& path, std::size_t limitBytes = std::size_t{1} << 30);

// A plain (uncompressed) regular file of 2 to limitBytes bytes read whole into `into`, whose
// memory is reused, with one open, one fstat and one read: a folder of thousands of dumps
// costs four system calls a file. False (`into` then holds nothing of use) when the file is
// anything else (compressed, not a regular file, larger, unreadable, changing): readWholeFile
// reads it the general way, or says what is wrong.
bool readPlainFile(const std::string& path, std::size_t limitBytes, std::string& into);

}  // namespace faultline
