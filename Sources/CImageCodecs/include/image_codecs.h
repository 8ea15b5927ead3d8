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

/* `components`: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK; `progressive`: 1 when every scan is
 * kept in a coefficient buffer of width * height * components * 2 bytes until the end. */
int auditd_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *components,
                       int *progressive, char *message, size_t message_size);

/* Asked between rows of every scan: nonzero stops the decode (the audit's budget ran
 * out, or its client left). */
typedef int (*auditd_should_stop)(void *context);

/* What a JPEG decode may cost: at most `max_scans` scans (a progressive file of 1,000
 * near-empty scans costs a pass over the whole image each), at most `max_memory` bytes
 * of libjpeg's own buffers, and it stops when `should_stop` (may be NULL) says so.
 * Returns -2 when stopped that way. */
struct auditd_jpeg_limits {
    int max_scans;
    long max_memory;
    auditd_should_stop should_stop;
    void *context;
};

int auditd_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                       const struct auditd_jpeg_limits *limits, char *message, size_t message_size);

/* Encodes width * height RGBA pixels (alpha dropped) as a baseline JPEG of `quality`
 * (1–100) into a buffer the caller frees with free(). For reports: a screenshot scaled to
 * the size it is drawn at. */
int auditd_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, uint8_t **output,
                       size_t *output_size, char *message, size_t message_size);

#endif
