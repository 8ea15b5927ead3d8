#include "image_codecs.h"

#include <png.h>
#include <stdio.h>
#include <string.h>

static void copy_message(const png_image *image, const char *fallback, char *message, size_t message_size) {
    const char *text = image->message[0] ? image->message : fallback;
    snprintf(message, message_size, "%s", text);
}

/* Reads the header into `image`; on failure frees it and writes the reason. */
static int begin(png_image *image, const uint8_t *data, size_t size, char *message, size_t message_size) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_memory(image, data, size)) return 0;
    copy_message(image, "not a readable PNG", message, message_size);
    png_image_free(image);
    return -1;
}

int auditd_png_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                      char *message, size_t message_size) {
    png_image image;
    if (begin(&image, data, size, message, message_size) != 0) return -1;
    *width = image.width;
    *height = image.height;
    png_image_free(&image);
    return 0;
}

int auditd_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                      char *message, size_t message_size) {
    png_image image;
    if (begin(&image, data, size, message, message_size) != 0) return -1;
    if (image.width != width || image.height != height) {
        snprintf(message, message_size, "the PNG's size changed between reads");
        png_image_free(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    /* A 16-bit file without gAMA or sRGB is sRGB-encoded, as screenshots are (set after
     * the header is read, which resets the flags). */
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
        copy_message(&image, "the PNG's pixels cannot be read", message, message_size);
        png_image_free(&image);
        return -1;
    }
    png_image_free(&image);
    return 0;
}
