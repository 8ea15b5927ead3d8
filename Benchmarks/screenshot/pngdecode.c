/*
 * pngdecode: the floor for the screenshot benchmark (docs/PERFORMANCE.md). Decodes one
 * PNG to 8-bit RGBA with libpng's simplified API, the same library and call auditd uses,
 * ITERATIONS times, and prints the median milliseconds per decode. Nothing else: no
 * snapshot, no rules.
 *
 *   pngdecode FILE [ITERATIONS]
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return spec.tv_sec * 1e3 + spec.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: pngdecode FILE [ITERATIONS]\n"); return 2; }
    int iterations = argc > 2 ? atoi(argv[2]) : 15;
    if (iterations < 1) iterations = 1;
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "read failed\n"); return 1; }
    fclose(file);
    double *times = malloc(sizeof(double) * (size_t)iterations);
    for (int i = 0; i < iterations; i++) {
        double start = now_ms();
        png_image image;
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_memory(&image, data, (size_t)size)) { fprintf(stderr, "%s\n", image.message); return 1; }
        image.format = PNG_FORMAT_RGBA;
        unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
        if (!pixels || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) { fprintf(stderr, "%s\n", image.message); return 1; }
        free(pixels);
        times[i] = now_ms() - start;
    }
    qsort(times, (size_t)iterations, sizeof(double), compare);
    printf("%.3f\n", times[iterations / 2]);
    return 0;
}
