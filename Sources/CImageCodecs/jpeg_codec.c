#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

/* libjpeg reports errors by calling error_exit, which must not return: jump back here.
 * Warnings (premature end of data, corrupt segments) are made fatal too: a screenshot
 * with grey filler where pixels were lost would give wrong colours. */
struct auditd_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int stopped;
};

/* The progress monitor: called by libjpeg between rows of each scan. */
struct auditd_jpeg_progress {
    struct jpeg_progress_mgr manager;
    const struct auditd_jpeg_limits *limits;
};

static void on_progress(j_common_ptr info) {
    struct auditd_jpeg_progress *progress = (struct auditd_jpeg_progress *)info->progress;
    struct auditd_jpeg_error *error = (struct auditd_jpeg_error *)info->err;
    const struct auditd_jpeg_limits *limits = progress->limits;
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    if (limits->max_scans > 0 && decompress->input_scan_number > limits->max_scans) {
        snprintf(error->message, sizeof error->message,
                 "the JPEG has more than %d scans (a progressive file needs about 10)", limits->max_scans);
        longjmp(error->jump, 1);
    }
    if (limits->should_stop && limits->should_stop(limits->context)) {
        error->stopped = 1;
        snprintf(error->message, sizeof error->message, "the decode was stopped");
        longjmp(error->jump, 1);
    }
}

static void on_error(j_common_ptr info) {
    struct auditd_jpeg_error *error = (struct auditd_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void on_message(j_common_ptr info, int level) {
    if (level < 0) on_error(info);   /* a warning: data was lost */
}

#define BEGIN(info, error)                                   \
    struct jpeg_decompress_struct info;                      \
    struct auditd_jpeg_error error;                          \
    memset(&error, 0, sizeof error);                         \
    info.err = jpeg_std_error(&error.manager);               \
    error.manager.error_exit = on_error;                     \
    error.manager.emit_message = on_message;                 \
    if (setjmp(error.jump)) {                                \
        snprintf(message, message_size, "%s", error.message); \
        jpeg_destroy_decompress(&info);                      \
        return error.stopped ? -2 : -1;                      \
    }                                                        \
    jpeg_create_decompress(&info);                           \
    jpeg_mem_src(&info, data, (unsigned long)size);

int auditd_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *components,
                       int *progressive, char *message, size_t message_size) {
    BEGIN(info, error)
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    *components = info.num_components;
    *progressive = jpeg_has_multiple_scans(&info) ? 1 : 0;
    jpeg_destroy_decompress(&info);
    return 0;
}

int auditd_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                       const struct auditd_jpeg_limits *limits, char *message, size_t message_size) {
    BEGIN(info, error)
    struct auditd_jpeg_progress progress;
    memset(&progress, 0, sizeof progress);
    progress.manager.progress_monitor = on_progress;
    progress.limits = limits;
    info.progress = &progress.manager;
    if (limits->max_memory > 0) info.mem->max_memory_to_use = limits->max_memory;
    jpeg_read_header(&info, TRUE);
    if (info.image_width != width || info.image_height != height) {
        snprintf(message, message_size, "the JPEG's size changed between reads");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = rgba + (size_t)info.output_scanline * width * 4;
        jpeg_read_scanlines(&info, &row, 1);
        if (cmyk) {
            /* Adobe writes CMYK inverted (255 = no ink); others do not. */
            int inverted = info.saw_Adobe_marker;
            for (uint32_t x = 0; x < width; x++) {
                uint8_t *pixel = row + (size_t)x * 4;
                unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                pixel[0] = (uint8_t)((c * k + 127) / 255);
                pixel[1] = (uint8_t)((m * k + 127) / 255);
                pixel[2] = (uint8_t)((y * k + 127) / 255);
                pixel[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}
