package io.ddf.ingest.acl;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's rules as Redis's ACL documentation and its acl.tcl suite describe them, on ddf's commands: passwords,
 * commands, categories, subcommands, first arguments, key patterns with read/write rights, and the compacted form
 * ACL LIST shows.
 */
class UserRulesTest
{
    /** SHA-256 of "passwd4", the vector Redis's own suite uses for hashed passwords. */
    static final String PASSWD4 = "34344e4d60c2b6d639b7bd22e18f2b0b91bc34bf0ac5f9952744435093cfb4e6";

    private final Acl acl = Acl.create(TestCatalog.catalog(), null, null);

    private User user(final String... rules)
    {
        acl.setUser("u", List.of(rules));
        return acl.user("u");
    }

    /** Checks a request as the daemon would: the subcommand's spec when there is one. */
    static Denial check(final CommandCatalog catalog, final User user, final String... args)
    {
        final CommandSpec spec = catalog.resolve(args[0], args.length > 1 ? args[1] : null);
        assertNotNull(spec, args[0]);
        return user.check(spec, args.length, i -> args[i]);
    }

    private Denial check(final User user, final String... args)
    {
        return check(acl.catalog(), user, args);
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void newUsersStartOffWithNothing()
    {
        acl.setUser("newuser", List.of(">passwd1"));
        assertNull(acl.authenticate("newuser", bytes("passwd1")), "a new user is off");
        assertEquals("user newuser off sanitize-payload #" + Passwords.hash(bytes("passwd1")) +
            " resetchannels -@all", acl.user("newuser").describe());
        acl.setUser("newuser", List.of("on"));
        assertNotNull(acl.authenticate("newuser", bytes("passwd1")));
        final Denial denied = check(acl.user("newuser"), "bf.add", "k", "a");
        assertEquals("NOPERM User newuser has no permissions to run the 'bf.add' command", denied.error("newuser"));
    }

    @Test
    void passwordsAddRemoveHashAndNopass()
    {
        user("on", ">passwd1", ">passwd2");
        assertNotNull(acl.authenticate("u", bytes("passwd1")));
        assertNotNull(acl.authenticate("u", bytes("passwd2")));
        assertNull(acl.authenticate("u", bytes("passwd3")));
        user("<passwd1");
        assertNull(acl.authenticate("u", bytes("passwd1")));
        user("#" + PASSWD4);
        assertNotNull(acl.authenticate("u", bytes("passwd4")));
        assertTrue(acl.user("u").passwordHashes().contains(PASSWD4));
        assertFalse(acl.user("u").describe().contains("passwd"), "no clear text in ACL LIST");
        user("!" + PASSWD4);
        assertFalse(acl.user("u").passwordHashes().contains(PASSWD4));
        final AclException missing = assertThrows(AclException.class, () -> user("<passwd1"));
        assertEquals("Error in ACL SETUSER modifier '<<password>': The password you are trying to remove from the " +
            "user does not exist", missing.getMessage());
        user("nopass");
        assertNotNull(acl.authenticate("u", bytes("zipzapblabla")), "nopass takes any password");
        user("resetpass");
        assertNull(acl.authenticate("u", bytes("zipzapblabla")), "resetpass ends nopass");
        assertNull(acl.authenticate("u", bytes("passwd2")), "and forgets the passwords");
        user("off", ">x");
        assertNull(acl.authenticate("u", bytes("x")), "an off user cannot authenticate");
        assertNull(acl.authenticate("nobody", bytes("x")));
    }

    @Test
    void hashesAreValidated()
    {
        for (final String bad : List.of(PASSWD4.substring(1), PASSWD4.substring(1) + "q", PASSWD4.toUpperCase()))
        {
            final AclException e = assertThrows(AclException.class, () -> user("#" + bad));
            assertEquals("Error in ACL SETUSER modifier '#" + bad + "': The password hash must be exactly 64 " +
                "characters and contain only lowercase hexadecimal characters", e.getMessage());
        }
    }

    @Test
    void commandsThenKeys()
    {
        User u = user("on", "nopass", "+bf.add");
        final Denial key = check(u, "bf.add", "foo", "a");
        assertEquals(new Denial("key", "foo"), key);
        assertEquals("NOPERM No permissions to access a key", key.error("u"));
        assertEquals("User u has no permissions to access the 'foo' key", key.verbose("u"));
        u = user("allcommands", "~foo:*", "~bar:*");
        assertNull(check(u, "bf.add", "foo:1", "a"));
        assertNull(check(u, "bf.add", "bar:2", "a"));
        assertEquals(new Denial("key", "zap:3"), check(u, "bf.add", "zap:3", "a"));
        assertEquals(new Denial("key", "zap"), check(u, "del", "foo:1", "zap", "bar:9"), "every key is checked");
        assertNull(check(user("allkeys"), "bf.add", "zap:3", "a"));
        assertNull(check(u, "ping"), "a command without keys needs no pattern");
    }

    @Test
    void readAndWritePatterns()
    {
        final User u = user("reset", "on", "nopass", "+@all", "%R~r:*", "%W~w:*", "~rw:*");
        assertNull(check(u, "bf.exists", "r:1", "a"));
        assertEquals("key", check(u, "bf.add", "r:1", "a").reason(), "BF.ADD reveals and changes: needs both");
        assertEquals("key", check(u, "bf.exists", "w:1", "a").reason());
        assertNull(check(u, "bf.reserve", "w:1", "0.01", "100"), "creating needs write only");
        assertNull(check(u, "del", "w:1"));
        assertNull(check(u, "bf.add", "rw:1", "a"));
        assertNull(check(u, "exists", "r:1", "w:2"), "EXISTS needs no right, only a matching pattern");
        assertEquals("key", check(u, "exists", "other").reason());
        assertNull(check(u, "memory", "usage", "w:1"), "a subcommand's key position");
        assertEquals("key", check(u, "memory", "usage", "x").reason());
        assertEquals("user u on nopass sanitize-payload %R~r:* %W~w:* ~rw:* resetchannels +@all", u.describe());
        // the same pattern again merges its rights
        assertEquals("~r:* %W~w:* ~rw:*", user("%W~r:*").keyPatterns());
        assertEquals("~* resetchannels +@all",
            user("allkeys").describe().substring(user("allkeys").describe().indexOf("~*")));
    }

    @Test
    void malformedKeyRules()
    {
        for (final String bad : List.of("%~x", "%X~x", "%RR~x", "%R", "~a b"))
        {
            final AclException e = assertThrows(AclException.class, () -> user("resetkeys", bad));
            assertTrue(e.getMessage().endsWith("': Syntax error"), bad + ": " + e.getMessage());
        }
        final AclException after = assertThrows(AclException.class, () -> user("allkeys", "~foo"));
        assertTrue(after.getMessage().contains("Adding a pattern after the * pattern (or the 'allkeys' flag)"));
        final AclException channels = assertThrows(AclException.class, () -> user("allchannels", "&foo"));
        assertTrue(channels.getMessage().contains("'allchannels'"));
        assertThrows(AclException.class, () -> user("nonsense"));
        assertThrows(AclException.class, () -> user("(+@all ~*)"), "selectors are refused, not ignored");
    }

    @Test
    void categoriesAndSingleCommands()
    {
        User u = user("reset", "on", "nopass", "allkeys", "-@all", "+@bloom");
        assertNull(check(u, "bf.add", "k", "a"));
        assertEquals("cf.add", check(u, "cf.add", "k", "a").object());
        u = user("+@all", "-@write");
        assertNull(check(u, "bf.exists", "k", "a"));
        assertEquals("bf.add", check(u, "bf.add", "k", "a").object());
        assertEquals("flushall", check(u, "flushall").object());
        u = user("+@all", "-ping");
        assertEquals("ping", check(u, "ping").object());
        assertNull(check(u, "echo", "x"));
        assertNull(check(user("-@all"), "auth", "x"), "no-auth commands are never refused");
        final AclException unknown = assertThrows(AclException.class, () -> user("+@nosuch"));
        assertEquals("Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL",
            unknown.getMessage());
        assertThrows(AclException.class, () -> user("+bf.nosuch"));
        assertThrows(AclException.class, () -> user("-"));
    }

    @Test
    void subcommands()
    {
        User u = user("reset", "on", "nopass", "+@all", "-client");
        u = user("+client|id", "+client|setname");
        assertEquals("+@all -client +client|id +client|setname", u.commandRules());
        assertNull(check(u, "client", "id"));
        assertNull(check(u, "client", "setname", "x"));
        final Denial list = check(u, "client", "list");
        assertEquals("NOPERM User u has no permissions to run the 'client|list' command", list.error("u"));
        u = user("+@all", "-client|list");
        assertEquals("+@all -client|list", u.commandRules());
        assertNull(check(u, "client", "id"));
        assertEquals("client|list", check(u, "client", "list").object());
        u = user("-@all", "+config", "-config|resetstat");
        assertNull(check(u, "config", "get", "x"));
        assertEquals("config|resetstat", check(u, "config", "resetstat").object());
        assertEquals("Error in ACL SETUSER modifier '+config|get|x': Allowing first-arg of a subcommand is not " +
            "supported", assertThrows(AclException.class, () -> user("+config|get|x")).getMessage());
        for (final String bad : List.of("+config|asdf", "-config|asdf", "+bf.add|a|b", "-bf.add|a|b", "-select|0"))
        {
            assertTrue(assertThrows(AclException.class, () -> user(bad)).getMessage()
                .endsWith("Unknown command or category name in ACL"), bad);
        }
        assertTrue(assertThrows(AclException.class, () -> user("+config|")).getMessage().endsWith("Syntax error"));
        // a category reaches subcommands by their own categories
        u = user("-@all", "+@admin");
        assertNull(check(u, "config", "get", "x"));
        assertEquals("client|id", check(u, "client", "id").object());
    }

    @Test
    void firstArguments()
    {
        User u = user("reset", "on", "nopass", "+select|0");
        assertEquals("-@all +select|0", u.commandRules());
        assertNull(check(u, "select", "0"));
        assertEquals("select", check(u, "select", "1").object());
        assertEquals("select", check(u, "select").object());
        u = user("-select");
        assertEquals("select", check(u, "select", "0").object(), "a rule on the command drops its first args");
        u = user("+echo|hello");
        assertNull(check(u, "echo", "HELLO"), "first arguments compare ignoring case");
    }

    @Test
    void compactionAsRedisShowsIt()
    {
        user("+@all", "-@bloom", "-@slow", "+bf.add");
        assertEquals("+@all -@bloom -@slow +bf.add", acl.user("u").commandRules());
        assertEquals("+@all -@slow +bf.add -@bloom", user("-@bloom").commandRules(), "re-added moves last");
        assertEquals("+@all -@slow +bf.add +@bloom", user("+@bloom").commandRules(), "inverted replaces");
        assertEquals("-@all", user("-@all").commandRules());
        assertEquals("+@all", user("-@read", "-@slow", "+@all").commandRules());
        assertEquals("-@all +@bloom", user("-@all", "+@BLOOM", "+@bloom", "+@BlOoM").commandRules());
        assertEquals("-@all +bf.add", user("-@all", "+BF.ADD", "+bf.add", "+Bf.AdD").commandRules());
        assertEquals("-@all +bf.exists -bf.add",
            user("-@all", "+bf.add", "-bf.exists", "+bf.exists", "-bf.add").commandRules());
        assertEquals("-@all +client|list +config -acl", user("-@all", "+client|list", "+client|list", "+config|get",
            "+config", "+acl|list", "-acl").commandRules());
        assertEquals("-@all +select|0 +echo", user("-@all", "+select|0", "+select|0", "+echo|x", "+echo")
            .commandRules());
        assertEquals("-@all -@dangerous", user("-@all", "-@dangerous").commandRules());
        assertEquals("-@all +config", user("-@all", "+config", "+config|get", "-config|resetstat", "+config")
            .commandRules());
        for (final Category c : Category.values())
        {
            assertEquals("+@all -@" + c.word(), user("reset", "+@all", "-@" + c.word()).commandRules());
            assertEquals("-@all +@" + c.word(), user("reset", "-@all", "+@" + c.word()).commandRules());
        }
    }

    @Test
    void resetReturnsToANewUser()
    {
        acl.setUser("fresh", List.of());
        final String fresh = acl.user("fresh").describe().replace("fresh", "u");
        user("on", ">x", "~*", "&*", "+@all", "skip-sanitize-payload", "reset");
        assertEquals(fresh, acl.user("u").describe());
    }

    @Test
    void setUserIsAllOrNothing()
    {
        user("on", "nopass", "+ping");
        final User before = acl.user("u");
        assertThrows(AclException.class, () -> user("+echo", "+bf.nosuch"));
        assertSame(before, acl.user("u"), "a refused SETUSER changes nothing");
        assertEquals("Usernames can't contain spaces or null characters",
            assertThrows(AclException.class, () -> acl.setUser("a a", List.of())).getMessage());
    }
}
