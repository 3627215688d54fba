/*
 * labgrade hostile sample: 11-socket
 * ----------------------------------
 * Attack:   FindGoodMove(7) opens a TCP socket and connects to 127.0.0.1:9
 *           (discard), as code phoning home would.
 * Harmless: loopback only, nothing is sent, the socket is closed at once. If a
 *           socket could be made at all the answer is wrong (a hole shows as
 *           `fail`); if socket() fails with an error the answer is right.
 * Stopped:  the seccomp filter traps socket(): forbidden (seccomp; Landlock
 *           would also refuse the TCP connect).
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

/*
 * Function: Hostile
 * Usage: return Hostile(answer);
 * ------------------------------
 * Called with the right answer (2 for 7 coins); what it returns is what
 * labgrade sees.
 */

#define DISCARD_PORT 9

int Hostile(int answer) {
    struct sockaddr_in addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0) return answer;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(DISCARD_PORT);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        /* refused or not allowed: the socket itself was already a hole */
    }
    close(fd);
    return answer + 1;
}
