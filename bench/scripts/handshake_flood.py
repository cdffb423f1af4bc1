"""A flood of TLS handshakes that never finish, against 127.0.0.1:PORT, for SECONDS seconds.

Usage: python3 handshake_flood.py PORT SECONDS [OPEN]
Keeps up to OPEN (default 200) connections open; each sends a real ClientHello (so the server does its half of
the key exchange and signs) and then goes silent. When the server closes one (e.g. at --auth-timeout), another
takes its place, and the 20 oldest are dropped and replaced every 10 ms so that new handshakes keep coming. Prints how many connections were opened and how many the server closed. Loopback only.
"""
import socket
import ssl
import sys
import time

port = int(sys.argv[1])
seconds = float(sys.argv[2])
most_open = int(sys.argv[3]) if len(sys.argv) > 3 else 200
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE


def client_hello():
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


live = []
opened = 0
closed = 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    while len(live) < most_open and time.monotonic() < end:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.setblocking(False)
        try:
            s.send(client_hello())
        except OSError:
            s.close()
            closed += 1
            continue
        live.append(s)
        opened += 1
    keep = []
    for s in live:
        try:
            data = s.recv(65536)  # the server's reply flight, never answered
            if data == b"":
                s.close()
                closed += 1
                continue
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            closed += 1
            continue
        keep.append(s)
    live = keep
    # churn: drop the oldest ones so that the server keeps doing new handshakes, not only waiting on old ones
    for s in live[:20]:
        s.close()
    live = live[20:]
    time.sleep(0.01)
for s in live:
    s.close()
print(f"flood: opened {opened} connections in {seconds:.0f} s, the server closed {closed}")
