/*
 * The cheapest RESP server this machine can run: it parses each request (an array of bulk strings, as
 * redis-benchmark sends) and answers ":1\r\n", one write per read, on one thread with epoll, holding no state.
 *
 * Why: at 10^9 the comparisons of bench/fsync-vs-redis.sh run redis-benchmark and the server on the same two
 * cores. This server is the ceiling of that arrangement: no server can answer BF.ADD faster than one that does no
 * work, so a target above what redis-benchmark reaches against it cannot be met on this machine by any server.
 * bench/client-ceiling.sh builds and runs it.
 *
 * Build: cc -O2 -o null-resp-server null-resp-server.c      Run: ./null-resp-server PORT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUF (1 << 16)
#define MAX_FDS 4096

struct conn { char in[BUF]; size_t len; };
static struct conn *conns[MAX_FDS];
static char out[BUF * 2];

/* Reads a "<c><digits>\r\n" line at p (end e); returns the number and moves *p past it, or -1 when incomplete. */
static long line(const char **p, const char *e, char c)
{
    const char *q = *p;
    if (q >= e || *q != c) return q >= e ? -1 : -2;
    long n = 0;
    for (q++; q < e && *q != '\r'; q++) n = n * 10 + (*q - '0');
    if (q + 1 >= e) return -1;
    *p = q + 2;
    return n;
}

/* Counts the complete requests at the head of c->in, answers each, keeps the incomplete tail. */
static int serve(int fd, struct conn *c)
{
    const char *p = c->in, *e = c->in + c->len;
    size_t w = 0;
    for (;;)
    {
        const char *s = p;
        long n = line(&s, e, '*');
        if (n == -2) return -1;
        if (n < 0) break;
        long i;
        for (i = 0; i < n; i++)
        {
            long l = line(&s, e, '$');
            if (l == -2) return -1;
            if (l < 0 || s + l + 2 > e) break;
            s += l + 2;
        }
        if (i < n) break;
        p = s;
        memcpy(out + w, ":1\r\n", 4);
        w += 4;
    }
    size_t left = (size_t)(e - p);
    memmove(c->in, p, left);
    c->len = left;
    for (size_t done = 0; done < w;)
    {
        ssize_t k = write(fd, out + done, w - done);
        if (k < 0 && errno != EAGAIN && errno != EINTR) return -1;
        if (k > 0) done += (size_t)k;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? atoi(argv[1]) : 6399;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(0x7f000001) };
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 512)) { perror("bind/listen"); return 1; }
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = ls }, evs[256];
    epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
    for (;;)
    {
        int n = epoll_wait(ep, evs, 256, -1);
        for (int i = 0; i < n; i++)
        {
            int fd = evs[i].data.fd;
            if (fd == ls)
            {
                int cfd;
                while ((cfd = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0)
                {
                    if (cfd >= MAX_FDS) { close(cfd); continue; }
                    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conns[cfd] = calloc(1, sizeof(struct conn));
                    struct epoll_event ce = { .events = EPOLLIN, .data.fd = cfd };
                    epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &ce);
                }
                continue;
            }
            struct conn *c = conns[fd];
            ssize_t k = read(fd, c->in + c->len, BUF - c->len);
            if (k > 0) c->len += (size_t)k;
            if (k == 0 || (k < 0 && errno != EAGAIN) || (k > 0 && serve(fd, c) < 0) || c->len == BUF)
            {
                close(fd);
                free(c);
                conns[fd] = NULL;
            }
        }
    }
}
