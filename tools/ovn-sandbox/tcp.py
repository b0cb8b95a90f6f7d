#!/usr/bin/env python3
"""TCP traffic for tools/ovn-sandbox.sh, run inside the VMs' namespaces.

  tcp.py serve ADDR PORT NAME    answers every connection with NAME
  tcp.py connect ADDR PORT COUNT makes COUNT connections, one after the
                                 other, and prints how many got an answer
                                 and from whom: "COUNT answered: vm2=3 vm3=2"
  tcp.py probe ADDR PORT         prints what one connection attempt got:
                                 "answered", "refused" or "timeout"
"""

import collections
import socket
import sys

TIMEOUT = 2.0


def serve(addr, port, name):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(16)
    while True:
        conn, _ = srv.accept()
        with conn:
            conn.settimeout(TIMEOUT)
            try:
                conn.recv(64)
                conn.sendall(name.encode())
            except OSError:
                pass


def ask(addr, port):
    """One request; returns the answer, or raises OSError."""
    with socket.create_connection((addr, port), timeout=TIMEOUT) as conn:
        conn.sendall(b"who\n")
        conn.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            data = conn.recv(64)
            if not data:
                break
            answer += data
        return answer.decode()


def connect(addr, port, count):
    names = collections.Counter()
    for _ in range(count):
        try:
            answer = ask(addr, port)
        except OSError:
            continue
        if answer:
            names[answer] += 1
    answered = sum(names.values())
    print("%d answered:%s" % (answered, "".join(
        " %s=%d" % (n, names[n]) for n in sorted(names))))


def probe(addr, port):
    try:
        ask(addr, port)
        print("answered")
    except ConnectionRefusedError:
        print("refused")
    except OSError:
        print("timeout")


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "serve":
        serve(args[1], int(args[2]), args[3])
    elif len(args) == 4 and args[0] == "connect":
        connect(args[1], int(args[2]), int(args[3]))
    elif len(args) == 3 and args[0] == "probe":
        probe(args[1], int(args[2]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(1)


if __name__ == "__main__":
    main()
