"""redis-py (pip 'redis') driving every BF.* and CF.* helper it has against a running ddf daemon.

Usage: python redis_py_test.py PORT
Environment: DDF_EXPECT_BFCF=true once the bfcf branch (BF.INSERT, BF.SCANDUMP/LOADCHUNK, CF.*) is merged: its
cases then must pass; while it is false they are skipped, loudly, only when the server answers "unknown command".
RESP3 cases run unless the server answers HELLO 3 with NOPROTO (then they are skipped, loudly).
Exit status 0 when every case that ran passed, 1 otherwise.
"""
import os
import socket
import sys
import traceback

import redis

PORT = int(sys.argv[1])
EXPECT_BFCF = os.environ.get("DDF_EXPECT_BFCF", "false") == "true"
failures = []
skips = []


def loud(message):
    print("!" * 78, file=sys.stderr)
    print("!!! " + message, file=sys.stderr)
    print("!" * 78, file=sys.stderr)


def field(info, attribute, name):
    """A BF.INFO / CF.INFO field: redis-py gives an object in RESP2 and may give a map in RESP3."""
    if isinstance(info, dict):
        for key, value in info.items():
            if (key.decode() if isinstance(key, bytes) else key) == name:
                return value
        raise AssertionError(f"{name} missing from {info!r}")
    return getattr(info, attribute)


def expect_error(call, text):
    try:
        call()
    except redis.ResponseError as e:
        assert text in str(e), f"expected an error containing {text!r}, got {e!r}"
        return
    raise AssertionError(f"expected an error containing {text!r}, got a reply")


def bf_core(r, p):
    """The BF.* commands ddf serves since its first daemon."""
    bf = r.bf()
    assert bf.create(p + "bf", 0.01, 1000) in (True, b"OK", "OK")
    expect_error(lambda: bf.create(p + "bf", 0.01, 1000), "item exists")
    assert bf.add(p + "bf", "a") == 1
    assert bf.add(p + "bf", "a") == 0
    assert list(bf.madd(p + "bf", "a", "b", "c")) == [0, 1, 1]
    assert bf.exists(p + "bf", "b") == 1
    assert bf.exists(p + "bf", "never-added") == 0
    assert list(bf.mexists(p + "bf", "a", "c", "never-added")) == [1, 1, 0]
    assert bf.card(p + "bf") == 3
    info = bf.info(p + "bf")
    assert field(info, "capacity", "Capacity") == 1000, info
    assert field(info, "insertedNum", "Number of items inserted") == 3, info
    assert field(info, "size", "Size") > 0, info
    # a missing key: BF.ADD creates it with the server's defaults, BF.EXISTS and BF.CARD see nothing
    assert bf.exists(p + "missing", "a") == 0
    assert bf.card(p + "missing") == 0
    assert bf.add(p + "auto", "x") == 1
    assert bf.card(p + "auto") == 1
    expect_error(lambda: bf.info(p + "missing"), "not found")
    expect_error(lambda: bf.create(p + "bad", 2, 1000), "error rate")
    assert r.delete(p + "bf", p + "auto") == 2
    assert bf.exists(p + "bf", "a") == 0


def bf_insert_and_dump(r, p):
    """BF.INSERT and BF.SCANDUMP/BF.LOADCHUNK (the bfcf branch)."""
    bf = r.bf()
    assert list(bf.insert(p + "ins", ["x", "y", "x"], capacity=500, error=0.01)) == [1, 1, 0]
    assert field(bf.info(p + "ins"), "capacity", "Capacity") == 500
    expect_error(lambda: bf.insert(p + "nocreate", ["x"], noCreate=True), "not found")
    bf.madd(p + "ins", *[f"item-{i}" for i in range(200)])
    chunks = []
    iterator = 0
    while True:
        iterator, data = bf.scandump(p + "ins", iterator)
        if iterator == 0:
            break
        chunks.append((iterator, data))
    assert chunks, "BF.SCANDUMP returned no chunk"
    for iterator, data in chunks:
        assert bf.loadchunk(p + "copy", iterator, data) in (True, b"OK", "OK")
    assert list(bf.mexists(p + "copy", "x", "y", "item-0", "item-199")) == [1, 1, 1, 1]
    assert bf.card(p + "copy") == bf.card(p + "ins")


def cf_all(r, p):
    """Every CF.* helper redis-py has (the bfcf branch)."""
    cf = r.cf()
    assert cf.create(p + "cf", 1000) in (True, b"OK", "OK")
    assert cf.add(p + "cf", "a") == 1
    assert cf.addnx(p + "cf", "a") == 0
    assert cf.addnx(p + "cf", "b") == 1
    assert list(cf.insert(p + "cf", ["c", "d"])) == [1, 1]
    assert list(cf.insertnx(p + "cf", ["c", "e"])) == [0, 1]
    assert cf.exists(p + "cf", "a") == 1
    assert cf.exists(p + "cf", "never-added") == 0
    assert list(cf.mexists(p + "cf", "a", "e", "never-added")) == [1, 1, 0]
    assert cf.add(p + "cf", "a") == 1  # CF.ADD adds a second copy
    assert cf.count(p + "cf", "a") == 2
    assert cf.delete(p + "cf", "a") == 1
    assert cf.count(p + "cf", "a") == 1
    assert cf.delete(p + "cf", "never-added") == 0
    info = cf.info(p + "cf")
    # six adds, one delete: RedisBloom's CF.DEL takes the item out of "Number of items inserted" (numItems--)
    assert field(info, "insertedNum", "Number of items inserted") == 5, info
    assert field(info, "deletedNum", "Number of items deleted") == 1, info
    expect_error(lambda: cf.insert(p + "cf-nocreate", ["x"], nocreate=True), "not found")


def run(name, case, client, prefix, needs_bfcf):
    try:
        case(client, prefix)
        print(f"PASS {name}")
    except redis.ResponseError as e:
        if needs_bfcf and not EXPECT_BFCF and "unknown command" in str(e):
            skips.append(name)
            loud(f"SKIPPED {name}: the server does not know the command ({e}); set expect.bfcf=true in "
                 "ingest/src/test/clients/expectations.properties once the bfcf branch is merged")
        else:
            failures.append(name)
            print(f"FAIL {name}: {e!r}", file=sys.stderr)
            traceback.print_exc()
    except Exception as e:  # an assertion or a client error: the case failed
        failures.append(name)
        print(f"FAIL {name}: {e!r}", file=sys.stderr)
        traceback.print_exc()


def server_speaks_resp3():
    """Asks with a bare socket, so that no client is left in a protocol it does not expect."""
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as s:
        s.sendall(b"*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n")
        first = s.recv(1 << 16)
    return not first.startswith(b"-NOPROTO")


def suite(protocol):
    client = redis.Redis(host="127.0.0.1", port=PORT, protocol=protocol, decode_responses=False)
    assert client.ping()
    prefix = f"py{protocol}:"
    run(f"resp{protocol} bf core", bf_core, client, prefix, False)
    run(f"resp{protocol} bf insert/scandump/loadchunk", bf_insert_and_dump, client, prefix, True)
    run(f"resp{protocol} cf", cf_all, client, prefix, True)
    client.close()


print(f"redis-py {redis.__version__}, daemon on port {PORT}, expect bfcf: {EXPECT_BFCF}")
suite(2)
if server_speaks_resp3():
    suite(3)
else:
    skips.append("resp3")
    loud("SKIPPED every RESP3 case: the server answers HELLO 3 with NOPROTO (RESP3 is the resp3 branch)")
print(f"redis-py: {len(failures)} failed {failures}, {len(skips)} skipped {skips}")
sys.exit(1 if failures else 0)
