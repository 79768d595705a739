#include "input_file.h"

#include "model/error.h"

#include <zlib.h>

#include <climits>
#include <cstdio>
#include <sys/stat.h>

namespace faultline {

namespace {
gzFile asGz(void* p) { return static_cast<gzFile>(p); }
}  // namespace

InputFile::InputFile(std::string path) : m_path(std::move(path)) {
    struct stat st{};
    if (::stat(m_path.c_str(), &st) != 0) throw Error(m_path + ": cannot open: no such file");
    if (S_ISDIR(st.st_mode)) throw Error(m_path + ": is a folder, not a file");
    m_size = static_cast<std::uint64_t>(st.st_size);
    if (std::FILE* f = std::fopen(m_path.c_str(), "rb")) {
        unsigned char magic[2] = {0, 0};
        m_compressed = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        std::fclose(f);
    } else {
        throw Error(m_path + ": cannot open: permission denied or unreadable");
    }
    m_gz = gzopen(m_path.c_str(), "rb");
    if (!m_gz) throw Error(m_path + ": cannot open");
    gzbuffer(asGz(m_gz), 1 << 20);
}

InputFile::~InputFile() {
    if (m_gz) gzclose(asGz(m_gz));
}

std::size_t InputFile::read(char* into, std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) n = static_cast<std::size_t>(INT_MAX);
    const int got = gzread(asGz(m_gz), into, static_cast<unsigned>(n));
    int err = Z_OK;
    const char* msg = gzerror(asGz(m_gz), &err);
    if (got < 0 || (err != Z_OK && err != Z_STREAM_END)) {
        throw Error(m_path + ": byte " + std::to_string(m_offset) + " (decompressed): " +
                    (m_compressed ? "the gzip stream is damaged or cut short (" + std::string(msg) + ")"
                                  : "read error (" + std::string(msg) + ")"));
    }
    m_offset += static_cast<std::uint64_t>(got);
    return static_cast<std::size_t>(got);
}

std::uint64_t InputFile::consumed() const {
    const z_off_t off = gzoffset(asGz(m_gz));
    return off < 0 ? 0 : static_cast<std::uint64_t>(off);
}

double InputFile::progress() const {
    if (m_size == 0) return 1.0;
    const double p = static_cast<double>(consumed()) / static_cast<double>(m_size);
    return p > 1.0 ? 1.0 : p;
}

std::string readHead(const std::string& path, std::size_t n) {
    InputFile in(path);
    std::string out(n, '\0');
    std::size_t have = 0;
    try {
        while (have < n) {
            const std::size_t got = in.read(out.data() + have, n - have);
            if (got == 0) break;
            have += got;
        }
    } catch (const Error&) {
        // A damaged tail does not hide the format: detection works on what could be read,
        // and the importer reports the damage when it gets there.
    }
    out.resize(have);
    return out;
}

}  // namespace faultline
