#pragma once
// Bytes written to disk with every count and every close checked: a file is whole or the
// writer hears why not, in words a user knows ("no space left on device", not "Input/output
// error" or a silent short write). Used beside model/partial_file.h: what is written here
// goes into the partial file, and only a whole one is renamed over the target.
#include <streambuf>
#include <string>
#include <string_view>

namespace faultline {

// The cause behind an errno value, as a message says it: "no space left on device".
std::string errnoText(int error);

// Writes `bytes` into `path` (made, or emptied first), then closes it; throws Error naming
// `path` and the cause at the first short write or failed close.
void writeFileBytes(const std::string& path, std::string_view bytes);

// Copies the file at `from` into `to` (made, or emptied first) by the same checked writes;
// throws Error naming the file that failed and the cause.
void copyFileBytes(const std::string& from, const std::string& to);

// A std::ostream's buffer over a file, for writers that stream (a trace of hundreds of MB):
// the first failed write is kept with its errno, every later one refused, and finish()
// flushes, closes and throws Error naming `path` and the cause.
class CheckedFileBuf : public std::streambuf {
public:
    explicit CheckedFileBuf(std::string path);  // throws Error when the file cannot be made
    ~CheckedFileBuf() override;
    CheckedFileBuf(const CheckedFileBuf&) = delete;
    CheckedFileBuf& operator=(const CheckedFileBuf&) = delete;

    void finish();

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool flushBuffer();
    bool writeAll(const char* data, std::size_t size);

    std::string m_path;
    int m_fd = -1;
    int m_error = 0;  // the first write's errno, 0 while all is well
    char m_buffer[1 << 16];
};

}  // namespace faultline
