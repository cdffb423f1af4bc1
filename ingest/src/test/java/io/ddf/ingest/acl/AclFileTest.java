package io.ddf.ingest.acl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ACL file (Redis's format), ACL LOAD's all-or-nothing rule, the default user and ACL DELUSER. */
class AclFileTest
{
    @TempDir
    Path dir;

    private Path write(final String... lines) throws IOException
    {
        final Path file = dir.resolve("users.acl");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
        return file;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void loadsUsersAndTheDefault() throws IOException
    {
        final Path file = write("user reader on >rpw ~* +@read", "",
            "user writer on #" + UserRulesTest.PASSWD4 + " ~clicks:* +@all -@admin  ", "user default off");
        final Acl acl = Acl.create(TestCatalog.catalog(), null, file);
        assertEquals(List.of("default", "reader", "writer"), acl.names());
        assertFalse(acl.defaultAuthenticates(), "user default off: connections start unauthenticated");
        assertNull(acl.authenticate("default", bytes("anything")));
        assertNotNull(acl.authenticate("reader", bytes("rpw")));
        assertNotNull(acl.authenticate("writer", bytes("passwd4")));
        final User writer = acl.user("writer");
        assertNull(UserRulesTest.check(acl.catalog(), writer, "bf.add", "clicks:1", "a"));
        assertEquals("key", UserRulesTest.check(acl.catalog(), writer, "bf.add", "orders:1", "a").reason());
        assertEquals("config|get", UserRulesTest.check(acl.catalog(), writer, "config", "get", "x").object());
        assertEquals("user writer on sanitize-payload #" + UserRulesTest.PASSWD4 + " ~clicks:* resetchannels " +
            "+@all -@admin", writer.describe());
        assertTrue(acl.describe().get(0).startsWith("user default off "));
    }

    @Test
    void everyErrorIsReportedWithItsLineAndNothingLoads() throws IOException
    {
        final Path file = write("user ok on nopass +@all ~*", "# a comment", "usr typo on", "user bad on +bf.nosuch " +
            "~a %X~b", "user ok on", "user", "user default on >secret -nothing");
        final AclFileException e = assertThrows(AclFileException.class,
            () -> Acl.create(TestCatalog.catalog(), null, file));
        final String name = file.toString();
        assertEquals(List.of(
            name + ":2: should start with the 'user' keyword followed by the username (an ACL file has no comments)",
            name + ":3: should start with the 'user' keyword followed by the username",
            name + ":4: '+bf.nosuch': Unknown command or category name in ACL",
            name + ":4: '%X~b': Syntax error",
            name + ":5: Duplicate user 'ok': Duplicate user found. A user can only be defined once in config files",
            name + ":6: should start with the 'user' keyword followed by the username",
            name + ":7: '-nothing': Unknown command or category name in ACL"), e.errors());
        assertFalse(e.getMessage().contains("secret"), "clear-text passwords never appear in errors");
    }

    @Test
    void aFailedReloadChangesNothingAndAGoodOneAppliesToConnections() throws IOException
    {
        final Path file = write("user a on >apw ~* +@all", "user b on >bpw ~* +@read");
        final Acl acl = Acl.create(TestCatalog.catalog(), null, file);
        final Identity a = acl.authenticate("a", bytes("apw"));
        final Identity b = acl.authenticate("b", bytes("bpw"));
        final User before = a.user();
        write("user a on >apw ~* -@all +ping", "user b on >bpw +nosuch");
        assertThrows(AclFileException.class, acl::load);
        assertSame(before, a.user(), "nothing changed");
        write("user a on >apw2 ~* -@all +ping");
        acl.load();
        assertSame(a, acl.authenticate("a", bytes("apw2")), "the same identity, so its connections follow");
        assertEquals("bf.add", UserRulesTest.check(acl.catalog(), a.user(), "bf.add", "k", "x").object(),
            "the new rules apply to a connection already authenticated");
        assertTrue(b.removed(), "a user missing from the reloaded file is removed");
        assertNull(acl.authenticate("b", bytes("bpw")));
        assertTrue(acl.defaultAuthenticates(), "a file without a default user: on nopass ~* +@all");
    }

    @Test
    void theDefaultUsersPasswordComesFromOnePlace() throws IOException
    {
        final Acl plain = Acl.create(TestCatalog.catalog(), "s3cret", null);
        assertFalse(plain.defaultAuthenticates());
        assertNotNull(plain.authenticate("default", bytes("s3cret")));
        assertEquals("user default on sanitize-payload #" + Passwords.hash(bytes("s3cret")) + " ~* &* +@all",
            plain.describe().get(0));
        final Path withDefault = write("user default on >other ~* +@all");
        final AclFileException e = assertThrows(AclFileException.class,
            () -> Acl.create(TestCatalog.catalog(), "s3cret", withDefault));
        assertTrue(e.getMessage().contains("give the default user's password in one place"), e.getMessage());
        final Path withoutDefault = write("user reader on >r ~* +@read");
        final Acl both = Acl.create(TestCatalog.catalog(), "s3cret", withoutDefault);
        assertNotNull(both.authenticate("default", bytes("s3cret")), "the daemon's password stays the default's");
        assertEquals("user default on nopass sanitize-payload ~* &* +@all",
            Acl.create(TestCatalog.catalog(), null, null).describe().get(0));
    }

    @Test
    void unreadableFileAndNoFile()
    {
        final Path missing = dir.resolve("missing.acl");
        final AclFileException e = assertThrows(AclFileException.class,
            () -> Acl.create(TestCatalog.catalog(), null, missing));
        assertTrue(e.getMessage().startsWith("Error loading ACLs, opening file '" + missing + "'"), e.getMessage());
        final Acl acl = Acl.create(TestCatalog.catalog(), null, null);
        assertTrue(assertThrows(AclException.class, acl::load).getMessage().contains("--aclfile"));
    }

    @Test
    void deleteUsers()
    {
        final Acl acl = Acl.create(TestCatalog.catalog(), null, null);
        acl.setUser("x", List.of("on", "nopass"));
        final Identity x = acl.authenticate("x", bytes(""));
        assertEquals("The 'default' user cannot be removed",
            assertThrows(AclException.class, () -> acl.deleteUsers(List.of("x", "default"))).getMessage());
        assertFalse(x.removed(), "nothing deleted when refused");
        assertEquals(1, acl.deleteUsers(List.of("x", "nobody")));
        assertTrue(x.removed());
        assertEquals(List.of("default"), acl.names());
    }

    @Test
    void categoriesAndPasswordsGenerated()
    {
        final Acl acl = Acl.create(TestCatalog.catalog(), null, null);
        assertTrue(acl.category(null).containsAll(List.of("keyspace", "read", "write", "admin", "dangerous",
            "connection", "bloom", "cuckoo")));
        assertEquals(List.of("bf.add", "bf.madd", "bf.exists", "bf.mexists", "bf.reserve", "bf.info"),
            acl.category("BLOOM"));
        assertTrue(acl.category("admin").contains("config|get"), "subcommands are listed by their full name");
        assertFalse(acl.category("keyspace").contains("bf.add"));
        assertNull(acl.category("nosuch"));
        assertEquals(64, acl.generatePassword(256).length());
        assertEquals(1, acl.generatePassword(1).length());
        assertTrue(acl.generatePassword(4096).matches("[0-9a-f]{1024}"));
        assertThrows(AclException.class, () -> acl.generatePassword(0));
        assertThrows(AclException.class, () -> acl.generatePassword(4097));
    }

    @Test
    void logGroupsSimilarRefusals()
    {
        final AclLog log = new AclLog();
        log.record("auth", "toplevel", "AUTH", "antirez", "id=1", 1000);
        for (int i = 0; i < 10; i++)
        {
            log.record("auth", "toplevel", "AUTH", "antirez", "id=2", 2000 + i);
        }
        log.record("command", "multi", "bf.add", "antirez", "id=3", 3000);
        List<java.util.Map<String, Object>> entries = log.newest(10, 4000);
        assertEquals(2, entries.size());
        assertEquals("bf.add", entries.get(0).get("object"));
        assertEquals(11L, entries.get(1).get("count"));
        assertEquals(0L, entries.get(1).get("entry-id"));
        assertEquals(1000L, entries.get(1).get("timestamp-created"));
        assertEquals(2009L, entries.get(1).get("timestamp-last-updated"));
        assertEquals("id=2", entries.get(1).get("client-info"));
        log.record("auth", "toplevel", "AUTH", "antirez", "id=4", 2009 + 60_001);
        assertEquals(3, log.newest(10, 100_000).size(), "a minute later is a new entry");
        for (int i = 0; i < 200; i++)
        {
            log.record("key", "toplevel", "k" + i, "u", "", 5000);
        }
        assertEquals(AclLog.MAX_ENTRIES, log.newest(1000, 5000).size());
        assertEquals(2, log.newest(2, 5000).size());
        log.reset();
        assertTrue(log.newest(10, 5000).isEmpty());
    }
}
