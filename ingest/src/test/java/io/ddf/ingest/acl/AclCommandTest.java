package io.ddf.ingest.acl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ACL's subcommands and their errors, in Redis's words. */
class AclCommandTest
{
    @TempDir
    Path dir;

    private static List<String> words(final String line)
    {
        return List.of(line.split(" "));
    }

    private static String error(final AclCommand acl, final String line)
    {
        return assertThrows(AclException.class, () -> acl.execute("default", words(line))).getMessage();
    }

    @Test
    void subcommands() throws IOException
    {
        final Path file = dir.resolve("users.acl");
        Files.writeString(file, "user reader on >r ~* +@read\n");
        final Acl acl = Acl.create(TestCatalog.catalog(), null, file);
        final AclCommand command = new AclCommand(acl, file);
        assertEquals(new AclReply.Bulk("reader"), command.execute("reader", words("ACL WHOAMI")));
        assertEquals(AclReply.Many.ofStrings(List.of("default", "reader")), command.execute("default",
            words("acl users")));
        assertEquals(AclReply.OK, command.execute("default", words("ACL SETUSER writer on >w ~clicks:* +@write")));
        assertEquals(3, ((AclReply.Many)command.execute("default", words("ACL LIST"))).items().size());
        final AclReply.Fields user = (AclReply.Fields)command.execute("default", words("ACL GETUSER writer"));
        assertEquals(new AclReply.Bulk("~clicks:*"), user.fields().get("keys"));
        assertEquals(new AclReply.Bulk("-@all +@write"), user.fields().get("commands"));
        assertEquals(new AclReply.Bulk(null), command.execute("default", words("ACL GETUSER nobody")));
        assertEquals(AclReply.OK, command.execute("default", words("ACL DRYRUN writer bf.add clicks:1 a")));
        assertEquals(new AclReply.Bulk("User writer has no permissions to access the 'other' key"),
            command.execute("default", words("ACL DRYRUN writer bf.add other a")));
        assertEquals(new AclReply.Bulk("User writer has no permissions to run the 'bf.exists' command"),
            command.execute("default", words("ACL DRYRUN writer BF.EXISTS clicks:1 a")));
        assertEquals("ERR User 'nobody' not found", error(command, "ACL DRYRUN nobody ping"));
        assertEquals("ERR Command 'nosuch' not found", error(command, "ACL DRYRUN writer nosuch"));
        assertEquals("ERR Unknown category 'NON_EXISTS'", error(command, "ACL CAT NON_EXISTS"));
        assertEquals("ERR unknown subcommand or wrong number of arguments for 'CAT'. Try ACL HELP.",
            error(command, "ACL CAT a b"));
        assertEquals("ERR Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL",
            error(command, "ACL SETUSER x +@nosuch"));
        assertEquals("ERR The 'default' user cannot be removed", error(command, "ACL DELUSER default"));
        assertEquals(new AclReply.Int(1), command.execute("default", words("ACL DELUSER writer nobody")));
        assertEquals(AclReply.OK, command.execute("default", words("ACL SAVE")));
        assertTrue(Files.readString(file, StandardCharsets.ISO_8859_1).startsWith("user default on nopass"));
        Files.writeString(file, "user reader on >r ~* +@nosuch\n");
        final String load = error(command, "ACL LOAD");
        assertTrue(load.startsWith("ERR " + file + ":1: '+@nosuch': Unknown command or category name in ACL. " +
            "WARNING: ACL errors detected, no change"), load);
        assertNotNull(acl.user("reader"));
        assertEquals(64, ((AclReply.Bulk)command.execute("default", words("ACL GENPASS"))).text().length());
        assertEquals(32, ((AclReply.Bulk)command.execute("default", words("ACL GENPASS 128"))).text().length());
        assertTrue(error(command, "ACL GENPASS 5000").startsWith("ERR ACL GENPASS argument must be"));
        assertEquals("ERR value is not an integer or out of range", error(command, "ACL GENPASS x"));
        assertInstanceOf(AclReply.Many.class, command.execute("default", words("ACL HELP")));
        acl.log().record("auth", "toplevel", "AUTH", "reader", "id=7", System.currentTimeMillis());
        final AclReply.Many log = (AclReply.Many)command.execute("default", words("ACL LOG"));
        assertEquals(new AclReply.Bulk("auth"), ((AclReply.Fields)log.items().get(0)).fields().get("reason"));
        assertEquals(AclReply.OK, command.execute("default", words("ACL LOG RESET")));
        assertEquals(new AclReply.Many(List.of()), command.execute("default", words("ACL LOG")));
        assertEquals("ERR unknown subcommand or wrong number of arguments for 'nope'. Try ACL HELP.",
            error(command, "ACL nope"));
        final AclCommand noFile = new AclCommand(Acl.create(TestCatalog.catalog(), null, null), null);
        assertTrue(error(noFile, "ACL LOAD").contains("--aclfile"));
        assertTrue(error(noFile, "ACL SAVE").contains("--aclfile"));
    }
}
