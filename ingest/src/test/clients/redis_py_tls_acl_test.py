"""redis-py over TLS (ssl=True, a client certificate) with ACL users, against a ddf daemon started by RealClientsIT.

Usage: python redis_py_tls_acl_test.py PORT CERT_DIR
CERT_DIR holds ca.crt, client.crt, client.key (and foreign.crt/foreign.key: a client another CA signed).
The daemon's ACL file defines 'writer' (>wpw ~clicks:* +@all -@admin) and 'reader' (>rpw ~* +@read), and
'user default off'. Exit status 0 when every case passed; one line 'PASS <case>' per case.
"""
import os
import ssl
import sys
import traceback

import redis

PORT = int(sys.argv[1])
CERTS = sys.argv[2]
failures = []


def connect(username, password, protocol=2, cert="client"):
    return redis.Redis(host="127.0.0.1", port=PORT, ssl=True, ssl_ca_certs=os.path.join(CERTS, "ca.crt"),
                       ssl_certfile=os.path.join(CERTS, cert + ".crt"), ssl_keyfile=os.path.join(CERTS, cert + ".key"),
                       username=username, password=password, protocol=protocol, socket_timeout=20)


def expect_error(call, text):
    try:
        call()
    except Exception as e:  # redis-py raises its own classes per error word; the text is what matters
        assert text in str(e), f"expected an error containing {text!r}, got {e!r}"
        return
    raise AssertionError(f"expected an error containing {text!r}, got a reply")


def case(name, body):
    try:
        body()
        print("PASS " + name)
    except Exception:
        failures.append(name)
        print("FAIL " + name)
        traceback.print_exc()


def writer(protocol):
    def body():
        r = connect("writer", "wpw", protocol)
        assert r.execute_command("ACL", "WHOAMI") in (b"writer", "writer")
        assert r.bf().add("clicks:py%d" % protocol, "a") in (1, True)
        assert r.bf().add("clicks:py%d" % protocol, "a") in (0, False)
        expect_error(lambda: r.bf().add("orders:1", "a"), "No permissions to access a key")
        expect_error(lambda: r.config_get("*"), "has no permissions to run the 'config|get' command")
        r.close()
    return body


def reader():
    r = connect("reader", "rpw")
    assert r.bf().exists("clicks:py2", "a") in (1, True)
    expect_error(lambda: r.bf().add("clicks:py2", "b"), "User reader has no permissions to run the 'bf.add' command")
    r.close()


def wrong_password():
    expect_error(lambda: connect("writer", "nope").ping(), "invalid username-password pair")


def default_is_off():
    r = redis.Redis(host="127.0.0.1", port=PORT, ssl=True, ssl_ca_certs=os.path.join(CERTS, "ca.crt"),
                    ssl_certfile=os.path.join(CERTS, "client.crt"), ssl_keyfile=os.path.join(CERTS, "client.key"),
                    socket_timeout=20)
    expect_error(r.ping, "Authentication required")
    r.close()


def refused(r, what):
    try:
        r.ping()
    except (redis.exceptions.ConnectionError, ssl.SSLError, OSError):
        return
    finally:
        r.close()
    raise AssertionError(what + " was let in")


def no_client_certificate():
    refused(redis.Redis(host="127.0.0.1", port=PORT, ssl=True, ssl_ca_certs=os.path.join(CERTS, "ca.crt"),
                        username="writer", password="wpw", socket_timeout=20), "a client without a certificate")


def foreign_certificate():
    refused(connect("writer", "wpw", cert="foreign"), "a client certificate another CA signed")


def server_not_trusted():
    refused(redis.Redis(host="127.0.0.1", port=PORT, ssl=True, ssl_ca_certs=os.path.join(CERTS, "foreign-ca.crt"),
                        ssl_certfile=os.path.join(CERTS, "client.crt"), ssl_keyfile=os.path.join(CERTS, "client.key"),
                        username="writer", password="wpw", socket_timeout=20), "a server its CA did not sign")


case("tls acl writer resp2", writer(2))
case("tls acl writer resp3", writer(3))
case("tls acl reader", reader)
case("tls acl wrongpass", wrong_password)
case("tls acl default off", default_is_off)
case("tls no client certificate", no_client_certificate)
case("tls foreign client certificate", foreign_certificate)
case("tls server not trusted", server_not_trusted)
sys.exit(1 if failures else 0)
