package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACL users in the daemon, as a client sees them: AUTH user pass, HELLO 3 AUTH, NOPERM for commands and keys,
 * MULTI refused at EXEC, ACL LOG, rules changed under a connection, a deleted user's connection closed, and a
 * malformed ACL file refusing to start.
 */
class AclCommandsTest
{
    @TempDir
    Path dir;

    private TestServer start() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("users.acl"), String.join("\n",
            "user default off",
            "user admin on >apw ~* +@all",
            "user writer on >wpw ~clicks:* +@all -@admin",
            "user reader on >rpw ~* +@read +@connection"));
        return new TestServer(dir.resolve("data"), c -> c.aclFile = file);
    }

    @Test
    void usersCommandsAndKeys() throws IOException
    {
        try (TestServer daemon = start(); RespClient writer = daemon.client(); RespClient reader = daemon.client();
            RespClient admin = daemon.client())
        {
            assertEquals("-NOAUTH Authentication required.", writer.call("PING"), "user default off");
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.",
                writer.call("AUTH", "writer", "nope"));
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.",
                writer.call("AUTH", "nobody", "wpw"));
            assertEquals("OK", writer.call("AUTH", "writer", "wpw"));
            assertEquals("writer", writer.call("ACL", "WHOAMI"));
            // CLIENT INFO and CLIENT LIST name the connection's user, as ACL LOG's client-info records it
            assertTrue(String.valueOf(writer.call("CLIENT", "INFO")).contains(" user=writer "),
                String.valueOf(writer.call("CLIENT", "INFO")));
            assertEquals(1L, writer.call("BF.ADD", "clicks:1", "a"));
            assertEquals("-NOPERM No permissions to access a key", writer.call("BF.ADD", "orders:1", "a"));
            assertEquals("-NOPERM User writer has no permissions to run the 'config|get' command",
                writer.call("CONFIG", "GET", "*"));
            assertInstanceOf(Long.class, writer.call("CLIENT", "ID"), "client|id is not @admin");
            assertEquals("OK", writer.call("MULTI"));
            assertTrue(String.valueOf(writer.call("BF.ADD", "orders:1", "a")).startsWith("-NOPERM"));
            assertTrue(String.valueOf(writer.call("EXEC")).startsWith("-EXECABORT"), "refused while queued");

            final Object hello = reader.call("HELLO", "3", "AUTH", "reader", "rpw");
            assertInstanceOf(Map.class, hello);
            assertEquals(Boolean.TRUE, reader.call("BF.EXISTS", "clicks:1", "a"));
            assertEquals("-NOPERM User reader has no permissions to run the 'bf.add' command",
                reader.call("BF.ADD", "clicks:1", "b"));

            assertEquals("OK", admin.call("AUTH", "admin", "apw"));
            final List<?> log = (List<?>)admin.call("ACL", "LOG");
            assertTrue(log.size() >= 4, String.valueOf(log));
            assertTrue(String.valueOf(log).contains("bf.add") && String.valueOf(log).contains("orders:1") &&
                String.valueOf(log).contains("nobody"), String.valueOf(log));

            // rules changed under an authenticated connection apply to its next command
            assertEquals("OK", admin.call("ACL", "SETUSER", "reader", "-bf.exists"));
            assertEquals("-NOPERM User reader has no permissions to run the 'bf.exists' command",
                reader.call("BF.EXISTS", "clicks:1", "a"));
            assertEquals(1L, admin.call("ACL", "DELUSER", "reader"));
            assertEquals("-NOPERM User reader was deleted: closing the connection", reader.call("PING"));
            assertThrows(IOException.class, () -> reader.call("PING"), "then the connection is closed");
            assertEquals("-NOPERM User writer has no permissions to run the 'acl|deluser' command",
                writer.call("ACL", "DELUSER", "admin"));
        }
    }

    /**
     * A client whose user may run everything is not asked about each command (the conductor caches that once per user
     * and change of rules), yet every change is seen at its next command, as Redis checks each command: ACL SETUSER of
     * its user from another connection or its own, ACL LOAD, ACL DELUSER, and an AUTH as another user.
     */
    @Test
    void aUserAllowedEverythingIsCheckedAgainWhenItsRulesOrItsUserChange() throws IOException
    {
        try (TestServer daemon = start(); RespClient client = daemon.client(); RespClient admin = daemon.client())
        {
            assertEquals("OK", admin.call("AUTH", "admin", "apw"));
            assertEquals("OK", client.call("AUTH", "admin", "apw"));
            assertEquals(1L, client.call("BF.ADD", "orders:1", "a"));
            assertEquals("OK", admin.call("ACL", "SETUSER", "admin", "-bf.add"));
            assertEquals("-NOPERM User admin has no permissions to run the 'bf.add' command",
                client.call("BF.ADD", "orders:1", "b"), "changed by another connection");
            assertEquals(0L, client.call("BF.EXISTS", "orders:1", "b"));
            assertEquals("OK", client.call("ACL", "SETUSER", "admin", "+bf.add"));
            assertEquals(1L, client.call("BF.ADD", "orders:1", "b"), "allowed everything again");
            assertEquals("OK", client.call("ACL", "SETUSER", "admin", "resetkeys", "~orders:*"));
            assertEquals("-NOPERM No permissions to access a key", client.call("BF.ADD", "clicks:1", "b"),
                "changed by its own connection");
            assertEquals("OK", client.call("ACL", "SETUSER", "admin", "allkeys"));
            assertEquals(1L, client.call("BF.ADD", "clicks:1", "b"));

            assertEquals("OK", client.call("AUTH", "reader", "rpw"));
            assertEquals("-NOPERM User reader has no permissions to run the 'bf.add' command",
                client.call("BF.ADD", "clicks:1", "c"), "another user on the same connection");
            assertEquals("OK", client.call("AUTH", "admin", "apw"));
            assertEquals(1L, client.call("BF.ADD", "clicks:1", "c"));

            assertEquals("OK", admin.call("ACL", "LOAD"));
            assertEquals(1L, client.call("BF.ADD", "clicks:1", "d"), "the file allows it");
            Files.writeString(dir.resolve("users.acl"), String.join("\n",
                "user default off",
                "user admin on >apw ~* +@all -bf.add"));
            assertEquals("OK", admin.call("ACL", "LOAD"));
            assertEquals("-NOPERM User admin has no permissions to run the 'bf.add' command",
                client.call("BF.ADD", "clicks:1", "e"), "changed by ACL LOAD");
            assertEquals("OK", admin.call("ACL", "SETUSER", "spare", "on", ">spw", "~*", "+@all"));
            assertEquals("OK", client.call("AUTH", "spare", "spw"));
            assertEquals(1L, client.call("BF.ADD", "clicks:1", "e"));
            assertEquals(1L, admin.call("ACL", "DELUSER", "spare"));
            assertEquals("-NOPERM User spare was deleted: closing the connection", client.call("PING"));
        }
    }

    @Test
    void theDefaultUserKeepsTheDaemonsPassword() throws IOException
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c -> c.requirePass = "s3cret");
            RespClient client = daemon.client())
        {
            assertEquals("-NOAUTH Authentication required.", client.call("PING"));
            assertEquals("OK", client.call("AUTH", "s3cret"));
            assertEquals("default", client.call("ACL", "WHOAMI"));
            assertTrue(String.valueOf(client.call("ACL", "LIST")).contains("user default on sanitize-payload #"));
        }
        try (TestServer daemon = new TestServer(dir.resolve("data2"), c -> { });
            RespClient client = daemon.client())
        {
            assertEquals("PONG", client.call("PING"), "no password: every connection is the default user");
            assertEquals("-ERR AUTH <password> called without any password configured for the default user. Are " +
                "you sure your configuration is correct?", client.call("AUTH", "x"));
            assertEquals("OK", client.call("AUTH", "default", "anything"), "nopass takes any password");
        }
    }

    @Test
    void aMalformedAclFileRefusesToStart() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("bad.acl"), "user ok on nopass ~* +@all\nuser bad on " +
            "+bf.frobnicate\n");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new TestServer(dir.resolve("data"), c -> c.aclFile = file).close());
        assertEquals("--aclfile: " + file + ":2: '+bf.frobnicate': Unknown command or category name in ACL",
            e.getMessage());
        // the refused start let go of the data directory: the same directory serves at once
        try (TestServer daemon = new TestServer(dir.resolve("data"), c -> { }); RespClient client = daemon.client())
        {
            assertEquals("PONG", client.call("PING"));
        }
    }
}
