/* A network link with a fixed one-way delay between two network namespaces, for kernels
 * without the netem qdisc: a TUN device named IFNAME in each namespace, and this process
 * carrying every packet one device sends to the other DELAY_US microseconds later, in order.
 *
 *     delay_line NETNS_A NETNS_B IFNAME DELAY_US
 *
 * NETNS_A and NETNS_B are names under /var/run/netns (`ip netns add`). Prints "ready" once
 * both devices exist (configure their addresses then) and runs until killed. Used by
 * benchmarks/two_hosts.py; built there with the system's C compiler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

enum { MAX_PACKET = 65536 };

struct packet {
  struct packet* next;
  int64_t due_ns;
  ssize_t size;
  unsigned char data[];
};

/* Packets read from one device, waiting to be written to the other (oldest first). */
struct queue {
  struct packet *head, *tail;
};

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void die(const char* what) {
  fprintf(stderr, "delay_line: %s: %s\n", what, strerror(errno));
  exit(1);
}

/* A TUN device named `name` in the network namespace /var/run/netns/`netns`. */
static int open_tun(const char* netns, const char* name) {
  char path[512];
  snprintf(path, sizeof path, "/var/run/netns/%s", netns);
  int ns = open(path, O_RDONLY | O_CLOEXEC);
  if (ns < 0) die(path);
  if (setns(ns, CLONE_NEWNET) != 0) die("setns");
  close(ns);
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("/dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) != 0) die("TUNSETIFF");
  return fd;
}

/* Reads every packet waiting on `from` into `q`, each due `delay_ns` from now. */
static void take(int from, struct queue* q, int64_t delay_ns) {
  for (;;) {
    struct packet* p = malloc(sizeof *p + MAX_PACKET);
    if (!p) die("malloc");
    ssize_t size = read(from, p->data, MAX_PACKET);
    if (size <= 0) {
      int error = errno;
      free(p);
      if (size < 0 && error != EAGAIN && error != EINTR) {
        errno = error;
        die("read");
      }
      return;
    }
    p->size = size;
    p->due_ns = now_ns() + delay_ns;
    p->next = NULL;
    if (q->tail) q->tail->next = p;
    else q->head = p;
    q->tail = p;
  }
}

/* Writes the packets of `q` due by `now` to `to`; a device that cannot take one drops it, as
 * a full link would (TCP sends it again). */
static void give(int to, struct queue* q, int64_t now) {
  while (q->head && q->head->due_ns <= now) {
    struct packet* p = q->head;
    if (write(to, p->data, p->size) < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EIO) die("write");
    q->head = p->next;
    if (!q->head) q->tail = NULL;
    free(p);
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: delay_line NETNS_A NETNS_B IFNAME DELAY_US\n");
    return 2;
  }
  int fd[2] = {open_tun(argv[1], argv[3]), open_tun(argv[2], argv[3])};
  int64_t delay_ns = (int64_t)(atof(argv[4]) * 1000.0);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); /* wake when the next packet is due, not 50 µs later */
  printf("ready\n");
  fflush(stdout);

  struct queue q[2] = {{NULL, NULL}, {NULL, NULL}}; /* q[i]: read from fd[i], for fd[1 - i] */
  /* A timed wait ends some tens of µs late on a virtual machine: wait that much less (a
   * running mean of the lateness) and send what is due by then, so packets leave on time on
   * average. */
  int64_t late_ns = 0;
  for (;;) {
    int64_t next = -1;
    for (int i = 0; i < 2; ++i)
      if (q[i].head && (next < 0 || q[i].head->due_ns < next)) next = q[i].head->due_ns;
    struct timespec wait, *timeout = NULL;
    int64_t target = next - late_ns;
    if (next >= 0) {
      int64_t left = target - now_ns();
      if (left < 0) left = 0;
      wait.tv_sec = left / 1000000000;
      wait.tv_nsec = left % 1000000000;
      timeout = &wait;
    }
    struct pollfd polls[2] = {{fd[0], POLLIN, 0}, {fd[1], POLLIN, 0}};
    int ready = ppoll(polls, 2, timeout, NULL);
    if (ready < 0 && errno != EINTR) die("ppoll");
    int64_t now = now_ns();
    if (ready == 0 && now >= target) late_ns += (now - target - late_ns) / 8;
    if (late_ns > delay_ns) late_ns = delay_ns;
    if (late_ns < 0) late_ns = 0;
    for (int i = 0; i < 2; ++i)
      if (polls[i].revents & POLLIN) take(fd[i], &q[i], delay_ns);
    for (int i = 0; i < 2; ++i) give(fd[1 - i], &q[i], now + late_ns);
  }
}
