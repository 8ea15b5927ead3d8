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
};

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
        return -1;                                           \
    }                                                        \
    jpeg_create_decompress(&info);                           \
    jpeg_mem_src(&info, data, (unsigned long)size);

int auditd_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *components,
                       char *message, size_t message_size) {
    BEGIN(info, error)
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    *components = info.num_components;
    jpeg_destroy_decompress(&info);
    return 0;
}

int auditd_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                       char *message, size_t message_size) {
    BEGIN(info, error)
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
