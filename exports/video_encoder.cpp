#include "exports/video_encoder.h"

#include "model/partial_file.h"

#include "model/checked_write.h"
#include "model/error.h"

#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace faultline {

namespace {

constexpr std::size_t kMaxQueued = 4;

std::string averror(int code) {
    if (code < 0 && code > -4096) return errnoText(-code);  // AVERROR(ENOSPC): "no space left on device", as every writer says it
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

}  // namespace

struct VideoEncoder::Impl {
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;
    std::int64_t pts = 0;
    bool headerWritten = false;

    ~Impl() {
        sws_freeContext(sws);
        av_packet_free(&packet);
        av_frame_free(&frame);
        avcodec_free_context(&codec);
        if (format) {
            if (format->pb) avio_closep(&format->pb);
            avformat_free_context(format);
        }
    }

    // Sends one frame (or nullptr to flush) and writes every packet that comes out.
    void encode(AVFrame* f, const std::string& path) {
        if (int rc = avcodec_send_frame(codec, f); rc < 0) throw Error(path + ": encoding failed: " + averror(rc));
        for (;;) {
            const int rc = avcodec_receive_packet(codec, packet);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
            if (rc < 0) throw Error(path + ": encoding failed: " + averror(rc));
            // Every frame lasts one tick: without it the MP4's edit list cuts the last frame.
            if (packet->duration == 0) packet->duration = 1;
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            if (int w = av_interleaved_write_frame(format, packet); w < 0) throw Error(path + ": cannot write: " + averror(w));
        }
    }
};

VideoEncoder::VideoEncoder(const std::string& path, int width, int height, int fps)
    : m_impl(std::make_unique<Impl>()), m_path(path), m_width(width), m_height(height) {
    if (width % 2 || height % 2) throw Error("video size must be even, not " + std::to_string(width) + "x" + std::to_string(height));
    m_partial = std::make_unique<PartialFile>(path);
    Impl& d = *m_impl;
    av_log_set_level(AV_LOG_ERROR);  // libx264's statistics are not for the terminal
    if (avformat_alloc_output_context2(&d.format, nullptr, "mp4", path.c_str()) < 0 || !d.format)
        throw Error(path + ": cannot make an MP4");
    const AVCodec* h264 = avcodec_find_encoder_by_name("libx264");
    if (!h264) h264 = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!h264) throw Error("this FFmpeg has no H.264 encoder (install libavcodec with libx264)");
    d.stream = avformat_new_stream(d.format, nullptr);
    d.codec = avcodec_alloc_context3(h264);
    d.codec->width = width;
    d.codec->height = height;
    d.codec->time_base = AVRational{1, fps};
    d.codec->framerate = AVRational{fps, 1};
    d.codec->pix_fmt = AV_PIX_FMT_YUV420P;
    d.codec->gop_size = fps * 2;  // a keyframe every 2 s: seeking in a player stays quick
    if (d.format->oformat->flags & AVFMT_GLOBALHEADER) d.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    // veryfast keeps up with rendering on two cores; CRF 20 keeps text in the caption crisp.
    av_opt_set(d.codec->priv_data, "preset", "veryfast", 0);
    av_opt_set(d.codec->priv_data, "crf", "20", 0);
    if (int rc = avcodec_open2(d.codec, h264, nullptr); rc < 0) throw Error(path + ": cannot open the H.264 encoder: " + averror(rc));
    avcodec_parameters_from_context(d.stream->codecpar, d.codec);
    d.stream->time_base = d.codec->time_base;
    if (int rc = avio_open(&d.format->pb, m_partial->path().c_str(), AVIO_FLAG_WRITE); rc < 0) throw Error(path + ": cannot write: " + averror(rc));
    if (int rc = avformat_write_header(d.format, nullptr); rc < 0) throw Error(path + ": cannot write: " + averror(rc));
    d.headerWritten = true;
    d.frame = av_frame_alloc();
    d.frame->format = d.codec->pix_fmt;
    d.frame->width = width;
    d.frame->height = height;
    av_frame_get_buffer(d.frame, 0);
    d.packet = av_packet_alloc();
    d.sws = sws_getContext(width, height, AV_PIX_FMT_BGRA, width, height, AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
    m_thread = std::thread([this] { encodeLoop(); });
}

VideoEncoder::~VideoEncoder() {
    if (m_thread.joinable()) {
        {
            std::lock_guard lock(m_mutex);
            m_closing = true;
            m_queue.clear();
        }
        m_changed.notify_all();
        m_thread.join();
        m_impl.reset();  // unfinished: the partial file goes with m_partial, the target untouched
    }
}

void VideoEncoder::encodeLoop() {
    for (;;) {
        std::vector<std::uint8_t> pixels;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return !m_queue.empty() || m_closing; });
            if (m_queue.empty()) return;
            pixels = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_changed.notify_all();
        try {
            Impl& d = *m_impl;
            av_frame_make_writable(d.frame);
            const std::uint8_t* src[1] = {pixels.data()};
            const int srcStride[1] = {m_width * 4};
            sws_scale(d.sws, src, srcStride, 0, m_height, d.frame->data, d.frame->linesize);
            d.frame->pts = d.pts++;
            d.encode(d.frame, m_path);
        } catch (const std::exception& e) {
            std::lock_guard lock(m_mutex);
            m_error = e.what();
            m_closing = true;
            m_queue.clear();
            m_changed.notify_all();
            return;
        }
    }
}

void VideoEncoder::addFrame(const std::uint8_t* pixels, int stride) {
    std::vector<std::uint8_t> packed(static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height) * 4);
    for (int y = 0; y < m_height; ++y)
        std::memcpy(packed.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) * 4,
                    pixels + static_cast<std::ptrdiff_t>(y) * stride, static_cast<std::size_t>(m_width) * 4);
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.size() < kMaxQueued || m_closing; });
    if (!m_error.empty()) throw Error(m_error);
    m_queue.push_back(std::move(packed));
    ++m_submitted;
    lock.unlock();
    m_changed.notify_all();
}

void VideoEncoder::finish() {
    {
        std::lock_guard lock(m_mutex);
        m_closing = true;
    }
    m_changed.notify_all();
    m_thread.join();
    if (!m_error.empty()) throw Error(m_error);
    Impl& d = *m_impl;
    d.encode(nullptr, m_path);  // flush the frames the encoder holds back
    if (int rc = av_write_trailer(d.format); rc < 0) throw Error(m_path + ": cannot finish: " + averror(rc));
    // The last of avio's buffer is written only now, and avio_close drops its error: asked here.
    avio_flush(d.format->pb);
    if (const int rc = d.format->pb->error; rc < 0) throw Error(m_path + ": cannot write: " + averror(rc));
    if (const int rc = avio_closep(&d.format->pb); rc < 0) throw Error(m_path + ": cannot write: " + averror(rc));
    m_impl.reset();
    m_partial->commit();
}

}  // namespace faultline
