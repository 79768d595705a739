#include "importers/text/read_whole_file.h"

#include "importers/text/input_file.h"
#include "model/error.h"

#include <algorithm>

namespace faultline {

std::string readWholeFile(const std::string& path, std::size_t limitBytes) {
    InputFile in(path);
    std::string out;
    std::size_t have = 0;
    // A plain file is read in one go into a buffer of its size (plus one byte to see the
    // end): thousands of small dumps must not each grow a buffer megabyte by megabyte.
    const std::size_t step = in.compressed() ? std::size_t{1} << 20 : static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), limitBytes)) + 1;
    for (;;) {
        out.resize(have + step);
        const std::size_t got = in.read(out.data() + have, step);
        have += got;
        if (got == 0) break;
        if (have > limitBytes)
            throw Error(path + ": larger than " + std::to_string(limitBytes >> 20) + " MB; too large for this format");
    }
    out.resize(have);
    return out;
}

}  // namespace faultline
