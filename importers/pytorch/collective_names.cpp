#include "importers/pytorch/collective_names.h"

namespace faultline {

std::int64_t dtypeBytes(std::string_view t) {
    if (t == "Float" || t == "float" || t == "Int" || t == "int32_t" || t == "uint32_t" || t == "int" || t == "UInt32") return 4;
    if (t == "Double" || t == "double" || t == "Long" || t == "int64_t" || t == "uint64_t" || t == "UInt64" || t == "ComplexFloat") return 8;
    if (t == "Half" || t == "half" || t == "BFloat16" || t == "bfloat16" || t == "__nv_bfloat16" || t == "Short" || t == "UInt16") return 2;
    if (t == "Byte" || t == "Char" || t == "Bool" || t == "int8_t" || t == "uint8_t" || t.substr(0, 6) == "Float8" || t == "f8e4m3" ||
        t == "f8e5m2")
        return 1;
    if (t == "ComplexDouble") return 16;
    return 0;
}

std::vector<std::int32_t> parseRankList(std::string_view s) {
    std::vector<std::int32_t> out;
    std::int64_t v = 0;
    bool inNumber = false;
    for (char c : s) {
        if (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            inNumber = true;
            if (v > 100'000'000) return {};
        } else if (inNumber) {
            out.push_back(static_cast<std::int32_t>(v));
            v = 0;
            inNumber = false;
        }
    }
    if (inNumber) out.push_back(static_cast<std::int32_t>(v));
    return out;
}

}  // namespace faultline
