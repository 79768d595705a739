#include "importers/text/byte_source.h"

#include "model/error.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace faultline {

Compression compressionOf(std::string_view m) {
    auto is = [&](std::string_view magic) { return m.substr(0, magic.size()) == magic; };
    if (is("\x1f\x8b")) return Compression::Gzip;
    if (is("\x28\xb5\x2f\xfd")) return Compression::Zstd;
    if (is(std::string_view("\xfd" "7zXZ\0", 6))) return Compression::Xz;
    if (m.size() >= 4 && is("BZh") && m[3] >= '1' && m[3] <= '9') return Compression::Bzip2;
    return Compression::None;
}

const char* compressionName(Compression c) {
    switch (c) {
        case Compression::Gzip: return "gzip";
        case Compression::Zstd: return "zstd";
        case Compression::Xz: return "xz";
        case Compression::Bzip2: return "bzip2";
        case Compression::None: break;
    }
    return "";
}

namespace {

// Plain files and gzip: zlib reads both (a file without the gzip magic is copied through).
class GzSource final : public ByteSource {
public:
    GzSource(int fd, std::size_t buffer, bool gzip) : m_gzip(gzip) {
        m_gz = gzdopen(fd, "rb");
        if (!m_gz) {
            ::close(fd);
            throw Error("cannot open");
        }
        gzbuffer(m_gz, static_cast<unsigned>(buffer));
    }
    ~GzSource() override { gzclose(m_gz); }

    std::size_t read(char* into, std::size_t n) override {
        if (n > static_cast<std::size_t>(INT_MAX)) n = static_cast<std::size_t>(INT_MAX);
        const int got = gzread(m_gz, into, static_cast<unsigned>(n));
        int err = Z_OK;
        const char* msg = gzerror(m_gz, &err);
        if (got < 0 || (err != Z_OK && err != Z_STREAM_END))
            throw Error(m_gzip ? "the gzip stream is damaged or cut short (" + std::string(msg) + ")" : "read error (" + std::string(msg) + ")");
        return static_cast<std::size_t>(got);
    }
    std::uint64_t consumed() const override {
        const z_off_t off = gzoffset(m_gz);
        return off < 0 ? 0 : static_cast<std::uint64_t>(off);
    }

private:
    gzFile m_gz = nullptr;
    bool m_gzip = false;
};

// The compressed bytes of the file, a buffer at a time, for the decoders below.
class FileBytes {
public:
    FileBytes(int fd, std::size_t buffer) : m_fd(fd), m_buf(buffer) {}
    ~FileBytes() { ::close(m_fd); }
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;

    // Refills when all was used; false at the end of the file.
    bool ensure() {
        if (m_pos < m_end) return true;
        if (m_eof) return false;
        for (;;) {
            const ssize_t got = ::read(m_fd, m_buf.data(), m_buf.size());
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) throw Error(std::string("read error (") + std::strerror(errno) + ")");
            m_pos = 0;
            m_end = static_cast<std::size_t>(got);
            m_consumed += static_cast<std::uint64_t>(got);
            m_eof = got == 0;
            return got > 0;
        }
    }
    const char* data() const { return m_buf.data() + m_pos; }
    std::size_t size() const { return m_end - m_pos; }
    void used(std::size_t n) { m_pos += n; }
    std::uint64_t consumed() const { return m_consumed; }

private:
    int m_fd;
    std::vector<char> m_buf;
    std::size_t m_pos = 0, m_end = 0;
    std::uint64_t m_consumed = 0;
    bool m_eof = false;
};

[[noreturn]] void cutShort(const char* name, const std::string& why) {
    throw Error(std::string("the ") + name + " stream is damaged or cut short (" + why + ")");
}

class ZstdSource final : public ByteSource {
public:
    ZstdSource(int fd, std::size_t buffer) : m_in(fd, buffer), m_z(ZSTD_createDStream()) {
        if (!m_z) throw Error("not enough memory for a zstd decoder");
    }
    ~ZstdSource() override { ZSTD_freeDStream(m_z); }
    std::size_t read(char* into, std::size_t n) override {
        ZSTD_outBuffer out{into, n, 0};
        while (out.pos == 0 && n > 0) {
            // At the end of the file the decoder may still hold output: it is asked once more.
            const bool more = m_in.ensure();
            if (!more && !m_inFrame) return 0;
            ZSTD_inBuffer in{m_in.data(), m_in.size(), 0};
            const std::size_t rc = ZSTD_decompressStream(m_z, &out, &in);
            m_in.used(in.pos);
            if (ZSTD_isError(rc)) cutShort("zstd", ZSTD_getErrorName(rc));
            m_inFrame = rc != 0;
            if (!more && out.pos == 0) {
                if (m_inFrame) cutShort("zstd", "the file ends inside a frame");
                return 0;
            }
        }
        return out.pos;
    }
    std::uint64_t consumed() const override { return m_in.consumed(); }

private:
    FileBytes m_in;
    ZSTD_DStream* m_z;
    bool m_inFrame = false;
};

class XzSource final : public ByteSource {
public:
    XzSource(int fd, std::size_t buffer) : m_in(fd, buffer) {
        if (lzma_stream_decoder(&m_z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) throw Error("not enough memory for an xz decoder");
    }
    ~XzSource() override { lzma_end(&m_z); }
    std::size_t read(char* into, std::size_t n) override {
        m_z.next_out = reinterpret_cast<std::uint8_t*>(into);
        m_z.avail_out = n;
        while (m_z.avail_out == n && n > 0 && !m_done) {
            const bool more = m_in.ensure();
            m_z.next_in = reinterpret_cast<const std::uint8_t*>(m_in.data());
            m_z.avail_in = m_in.size();
            const lzma_ret rc = lzma_code(&m_z, more ? LZMA_RUN : LZMA_FINISH);
            m_in.used(m_in.size() - m_z.avail_in);
            if (rc == LZMA_STREAM_END) m_done = true;
            else if (rc == LZMA_BUF_ERROR && !more) cutShort("xz", "the file ends inside a block");
            else if (rc != LZMA_OK) cutShort("xz", "liblzma error " + std::to_string(static_cast<int>(rc)));
        }
        return n - m_z.avail_out;
    }
    std::uint64_t consumed() const override { return m_in.consumed(); }

private:
    FileBytes m_in;
    lzma_stream m_z = LZMA_STREAM_INIT;
    bool m_done = false;
};

class Bzip2Source final : public ByteSource {
public:
    Bzip2Source(int fd, std::size_t buffer) : m_in(fd, buffer) { start(); }
    ~Bzip2Source() override { BZ2_bzDecompressEnd(&m_z); }
    std::size_t read(char* into, std::size_t n) override {
        n = std::min<std::size_t>(n, UINT_MAX);
        m_z.next_out = into;
        m_z.avail_out = static_cast<unsigned>(n);
        while (m_z.avail_out == n && n > 0) {
            if (m_z.avail_in == 0) {
                m_in.used(m_given);
                m_given = 0;
                if (!m_in.ensure()) {
                    if (m_inStream) cutShort("bzip2", "the file ends inside a stream");
                    break;
                }
                m_z.next_in = const_cast<char*>(m_in.data());
                m_z.avail_in = static_cast<unsigned>(std::min<std::size_t>(m_in.size(), UINT_MAX));
                m_given = m_z.avail_in;
            }
            if (!m_inStream) start();  // `bzip2 -c a b > c.bz2` writes streams one after another
            const int rc = BZ2_bzDecompress(&m_z);
            if (rc == BZ_STREAM_END) m_inStream = false;
            else if (rc != BZ_OK) cutShort("bzip2", "libbz2 error " + std::to_string(rc));
        }
        return n - m_z.avail_out;
    }
    std::uint64_t consumed() const override { return m_in.consumed(); }

private:
    // A fresh decoder that goes on with the input the last one left.
    void start() {
        char* nextIn = m_z.next_in;
        const unsigned availIn = m_z.avail_in;
        if (m_started) BZ2_bzDecompressEnd(&m_z);
        m_z = bz_stream{};
        if (BZ2_bzDecompressInit(&m_z, 0, 0) != BZ_OK) throw Error("not enough memory for a bzip2 decoder");
        m_z.next_in = nextIn;
        m_z.avail_in = availIn;
        m_started = m_inStream = true;
    }
    FileBytes m_in;
    bz_stream m_z{};
    std::size_t m_given = 0;  // bytes of m_in handed to m_z, marked used once it has taken them all
    bool m_started = false;
    bool m_inStream = false;
};

}  // namespace

class PlainSource final : public ByteSource {
public:
    PlainSource(int fd, std::uint64_t offset) : m_fd(fd), m_offset(offset) {
        if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) {
            const int err = errno;
            ::close(fd);
            throw Error(std::string("cannot seek to byte ") + std::to_string(offset) + " (" + std::strerror(err) + ")");
        }
    }
    ~PlainSource() override { ::close(m_fd); }
    std::size_t read(char* into, std::size_t n) override {
        for (;;) {
            const ssize_t got = ::read(m_fd, into, n);
            if (got >= 0) {
                m_offset += static_cast<std::uint64_t>(got);
                return static_cast<std::size_t>(got);
            }
            if (errno != EINTR) throw Error(std::string("read error (") + std::strerror(errno) + ")");
        }
    }
    std::uint64_t consumed() const override { return m_offset; }

private:
    int m_fd;
    std::uint64_t m_offset;
};

std::unique_ptr<ByteSource> openPlainSource(int fd, std::uint64_t offset) { return std::make_unique<PlainSource>(fd, offset); }

std::unique_ptr<ByteSource> openByteSource(int fd, Compression c, std::size_t buffer) {
    switch (c) {
        case Compression::Zstd: return std::make_unique<ZstdSource>(fd, buffer);
        case Compression::Xz: return std::make_unique<XzSource>(fd, buffer);
        case Compression::Bzip2: return std::make_unique<Bzip2Source>(fd, buffer);
        case Compression::Gzip:
        case Compression::None: break;
    }
    return std::make_unique<GzSource>(fd, buffer, c == Compression::Gzip);
}

}  // namespace faultline
