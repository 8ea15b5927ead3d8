/*
 * ceiling: the least any durable audit server can do per request on this machine,
 * for the load benchmark of issue 6 (docs/PERFORMANCE.md, "The load ceiling").
 *
 * It serves `POST` requests over a Unix socket with keep-alive, as auditd does, and for
 * each one does only what the load target itself demands, with nothing of auditd's:
 *   1. reads the request (head, then Content-Length bytes of body),
 *   2. parses the body with libxml2's SAX2 parser, callbacks empty (no model, no rules),
 *   3. appends a line of the answer's size to a journal and waits until it is on disk
 *      (one fdatasync shared by every append that arrived meanwhile: group commit),
 *   4. answers 200 with a body of that size.
 * One thread per connection and one syncing thread, in C: no queues, no hand-offs
 * beyond the sync. Whatever rate `auditbench load` reaches against it is the ceiling for
 * auditd, which also builds a model, runs its rules and renders the findings.
 *
 *   ceiling SOCKET JOURNAL ANSWER_BYTES [--no-parse] [--no-sync] [--commit-delay MICROSECONDS]
 *
 * --commit-delay waits that long before each sync so more appends share it (as auditd's
 * group commit does while more writers run than have appended). On SIGTERM it prints
 * how many appends and syncs it made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <fcntl.h>
#include <unistd.h>
#include <libxml/parser.h>

static int journal_fd = -1;
static size_t answer_bytes;
static char *answer;          /* head and body of every answer */
static size_t answer_length;
static char *journal_line;    /* answer_bytes of body and a newline */
static int parse_bodies = 1;
static int sync_journal = 1;
static useconds_t commit_delay;
static unsigned long syncs;

static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t appended = PTHREAD_COND_INITIALIZER;
static pthread_cond_t synced = PTHREAD_COND_INITIALIZER;
static unsigned long appended_count, synced_count;

static void on_start(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
                     int namespaces, const xmlChar **namespace_list, int attributes, int defaulted,
                     const xmlChar **attribute_list) {
    (void)context; (void)local; (void)prefix; (void)uri; (void)namespaces; (void)namespace_list;
    (void)attributes; (void)defaulted; (void)attribute_list;
}
static void on_end(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)context; (void)local; (void)prefix; (void)uri;
}
static void on_error(void *context, xmlErrorPtr error) { (void)context; (void)error; }

/* libxml2's SAX2 parse of the body, as auditd drives it (push parser, same options). */
static int parse(const char *body, size_t length) {
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.serror = on_error;
    size_t head = length < 4 ? length : 4;
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, body, (int)head, NULL);
    if (!context) return 0;
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    int status = xmlParseChunk(context, body + head, (int)(length - head), 1);
    int ok = status == 0 && context->wellFormed;
    xmlFreeParserCtxt(context);
    return ok;
}

/* Appends one line and returns once it is on disk. */
static int append_durably(void) {
    pthread_mutex_lock(&journal_lock);
    ssize_t wrote = write(journal_fd, journal_line, answer_bytes + 1);
    unsigned long mine = ++appended_count;
    if (sync_journal) {
        pthread_cond_signal(&appended);
        while (synced_count < mine) pthread_cond_wait(&synced, &journal_lock);
    }
    pthread_mutex_unlock(&journal_lock);
    return wrote == (ssize_t)(answer_bytes + 1);
}

static void *syncer(void *unused) {
    (void)unused;
    pthread_mutex_lock(&journal_lock);
    for (;;) {
        while (appended_count == synced_count) pthread_cond_wait(&appended, &journal_lock);
        pthread_mutex_unlock(&journal_lock);
        if (commit_delay > 0) usleep(commit_delay);
        pthread_mutex_lock(&journal_lock);
        unsigned long target = appended_count;
        syncs++;
        pthread_mutex_unlock(&journal_lock);
        fdatasync(journal_fd);
        pthread_mutex_lock(&journal_lock);
        synced_count = target;
        pthread_cond_broadcast(&synced);
    }
    return NULL;
}

static int send_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t sent = send(fd, bytes, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return 0;
        bytes += sent;
        length -= (size_t)sent;
    }
    return 1;
}

/* One keep-alive connection: requests until the client closes. */
static void *serve(void *argument) {
    int fd = (int)(long)argument;
    size_t capacity = 1 << 20, filled = 0;
    char *buffer = malloc(capacity);
    for (;;) {
        char *end = NULL;
        while (!(end = memmem(buffer, filled, "\r\n\r\n", 4))) {
            if (filled == capacity) goto done;
            ssize_t got = recv(fd, buffer + filled, capacity - filled, 0);
            if (got <= 0) goto done;
            filled += (size_t)got;
        }
        size_t head = (size_t)(end - buffer) + 4, body_length = 0;
        /* Lines found with memmem, bounded by the head: the buffer holds raw bytes (no
         * terminating NUL, and a NUL inside would stop strstr short). The head ends in
         * "\r\n\r\n" at `end`, so every line before it finds its CRLF. */
        for (char *line = buffer; line < end; line = (char *)memmem(line, (size_t)(end + 2 - line), "\r\n", 2) + 2) {
            if (strncasecmp(line, "Content-Length:", 15) == 0) body_length = strtoul(line + 15, NULL, 10);
        }
        if (head + body_length > capacity) goto done;
        while (filled < head + body_length) {
            ssize_t got = recv(fd, buffer + filled, capacity - filled, 0);
            if (got <= 0) goto done;
            filled += (size_t)got;
        }
        if (parse_bodies && !parse(buffer + head, body_length)) goto done;
        if (!append_durably()) goto done;
        if (!send_all(fd, answer, answer_length)) goto done;
        memmove(buffer, buffer + head + body_length, filled - head - body_length);
        filled -= head + body_length;
    }
done:
    free(buffer);
    close(fd);
    return NULL;
}

static void report(int signal) {
    (void)signal;
    char line[128];
    int length = snprintf(line, sizeof line, "ceiling: %lu appends, %lu syncs\n", appended_count, syncs);
    write(STDERR_FILENO, line, (size_t)length);
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: ceiling SOCKET JOURNAL ANSWER_BYTES [--no-parse] [--no-sync]\n");
        return 2;
    }
    for (int index = 4; index < argc; index++) {
        if (strcmp(argv[index], "--no-parse") == 0) parse_bodies = 0;
        if (strcmp(argv[index], "--no-sync") == 0) sync_journal = 0;
        if (strcmp(argv[index], "--commit-delay") == 0 && index + 1 < argc) commit_delay = (useconds_t)atoi(argv[++index]);
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, report);
    answer_bytes = strtoul(argv[3], NULL, 10);
    journal_line = malloc(answer_bytes + 1);
    memset(journal_line, 'x', answer_bytes);
    journal_line[answer_bytes] = '\n';
    char head[128];
    int head_length = snprintf(head, sizeof head,
                               "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n", answer_bytes);
    answer_length = (size_t)head_length + answer_bytes;
    answer = malloc(answer_length);
    memcpy(answer, head, (size_t)head_length);
    memset(answer + head_length, ' ', answer_bytes);
    journal_fd = open(argv[2], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (journal_fd < 0) { perror(argv[2]); return 1; }
    xmlInitParser();
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 128) != 0) {
        perror(argv[1]);
        return 1;
    }
    pthread_t thread;
    pthread_create(&thread, NULL, syncer, NULL);
    pthread_detach(thread);
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) continue;
        pthread_create(&thread, NULL, serve, (void *)(long)client);
        pthread_detach(thread);
    }
}
