#include "read_whole_file.h"

#include "input_file.h"
#include "model/error.h"

namespace faultline {

std::string readWholeFile(const std::string& path, std::size_t limitBytes) {
    InputFile in(path);
    std::string out;
    std::size_t have = 0;
    for (;;) {
        out.resize(have + (1 << 20));
        const std::size_t got = in.read(out.data() + have, 1 << 20);
        have += got;
        if (got == 0) break;
        if (have > limitBytes)
            throw Error(path + ": larger than " + std::to_string(limitBytes >> 20) + " MB; too large for this format");
    }
    out.resize(have);
    return out;
}

}  // namespace faultline
