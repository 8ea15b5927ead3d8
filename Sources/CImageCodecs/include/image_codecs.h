#ifndef AUDITD_IMAGE_CODECS_H
#define AUDITD_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/* PNG (libpng's simplified API) and JPEG (libjpeg-turbo) decoding for screenshots.
 * Each format has two calls: the header alone (dimensions, before any pixel is
 * allocated: the caller refuses decompression bombs there), then the decode into a
 * caller-owned RGBA buffer of width * height * 4 bytes. Every call returns 0 on success,
 * else -1 with a NUL-terminated reason in `message` (`message_size` bytes). Warnings that
 * mean lost data (a truncated JPEG, a broken CRC) are errors. */

int auditd_png_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                      char *message, size_t message_size);
int auditd_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                      char *message, size_t message_size);

/* `components`: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK. */
int auditd_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *components,
                       char *message, size_t message_size);
int auditd_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                       char *message, size_t message_size);

#endif
