#pragma once
// H.264 in an MP4 through FFmpeg's libraries (libavcodec with libx264, libavformat): frames
// in as 32-bit BGRX pixels (QImage::Format_RGB32), converted to YUV 4:2:0 by libswscale.
// Qt-free. Frames are encoded on a thread of the encoder's own, so rendering the next frame
// and encoding this one overlap; addFrame blocks only when a few frames are waiting.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace faultline {

class PartialFile;

class VideoEncoder {
public:
    // Opens `path` for writing; throws faultline::Error naming what failed. Width and
    // height must be even (4:2:0).
    VideoEncoder(const std::string& path, int width, int height, int fps);
    ~VideoEncoder();  // abandons the file if finish() was not called
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    // One frame of width x height pixels, `stride` bytes a row, BGRX byte order.
    void addFrame(const std::uint8_t* pixels, int stride);
    // Flushes the encoder and writes the MP4's index; throws on failure.
    void finish();
    std::int64_t frames() const { return m_submitted; }

private:
    struct Impl;
    void encodeLoop();
    std::unique_ptr<Impl> m_impl;
    std::string m_path;
    std::unique_ptr<PartialFile> m_partial;  // written there, renamed over m_path when finished
    int m_width, m_height;
    std::int64_t m_submitted = 0;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::vector<std::uint8_t>> m_queue;  // tightly packed BGRX frames
    bool m_closing = false;
    std::string m_error;
    std::thread m_thread;
};

}  // namespace faultline
