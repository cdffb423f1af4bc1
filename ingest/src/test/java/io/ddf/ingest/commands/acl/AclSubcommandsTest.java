package io.ddf.ingest.commands.acl;

import io.ddf.ingest.acl.Acl;
import io.ddf.ingest.acl.AclException;
import io.ddf.ingest.acl.TestCatalog;
import io.ddf.ingest.resp.RespText;
import io.netty.handler.codec.redis.RedisMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ACL's subcommands and their errors, in Redis's words, as a RESP2 client reads them. */
class AclSubcommandsTest
{
    @TempDir
    Path dir;

    private static List<String> words(final String line)
    {
        return List.of(line.split(" "));
    }

    private static String error(final AclSubcommands acl, final String line)
    {
        return assertThrows(AclException.class, () -> acl.execute("default", words(line))).getMessage();
    }

    private static String run(final AclSubcommands acl, final String caller, final String line)
    {
        final RedisMessage reply = acl.execute(caller, words(line));
        return RespText.resp2(reply);
    }

    @Test
    void subcommands() throws IOException
    {
        final Path file = dir.resolve("users.acl");
        Files.writeString(file, "user reader on >r ~* +@read\n");
        final Acl acl = Acl.create(TestCatalog.catalog(), null, file);
        final AclSubcommands command = new AclSubcommands(acl, file);
        assertEquals("$6\r\nreader\r\n", run(command, "reader", "ACL WHOAMI"));
        assertEquals("*2\r\n$7\r\ndefault\r\n$6\r\nreader\r\n", run(command, "default", "acl users"));
        assertEquals("+OK\r\n", run(command, "default", "ACL SETUSER writer on >w ~clicks:* +@write"));
        assertTrue(run(command, "default", "ACL LIST").startsWith("*3\r\n"));
        final String user = run(command, "default", "ACL GETUSER writer");
        assertTrue(user.startsWith("*12\r\n$5\r\nflags\r\n"), user);
        assertTrue(user.contains("$4\r\nkeys\r\n$9\r\n~clicks:*\r\n"), user);
        assertTrue(user.contains("$8\r\ncommands\r\n$13\r\n-@all +@write\r\n"), user);
        assertEquals("$-1\r\n", run(command, "default", "ACL GETUSER nobody"));
        assertEquals("+OK\r\n", run(command, "default", "ACL DRYRUN writer bf.add clicks:1 a"));
        assertEquals("$56\r\nUser writer has no permissions to access the 'other' key\r\n",
            run(command, "default", "ACL DRYRUN writer bf.add other a"));
        assertEquals("$61\r\nUser writer has no permissions to run the 'bf.exists' command\r\n",
            run(command, "default", "ACL DRYRUN writer BF.EXISTS clicks:1 a"));
        assertEquals("ERR User 'nobody' not found", error(command, "ACL DRYRUN nobody ping"));
        assertEquals("ERR Command 'nosuch' not found", error(command, "ACL DRYRUN writer nosuch"));
        assertEquals("ERR Unknown category 'NON_EXISTS'", error(command, "ACL CAT NON_EXISTS"));
        assertEquals("ERR unknown subcommand or wrong number of arguments for 'CAT'. Try ACL HELP.",
            error(command, "ACL CAT a b"));
        assertEquals("ERR Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL",
            error(command, "ACL SETUSER x +@nosuch"));
        assertEquals("ERR The 'default' user cannot be removed", error(command, "ACL DELUSER default"));
        assertEquals(":1\r\n", run(command, "default", "ACL DELUSER writer nobody"));
        assertEquals("+OK\r\n", run(command, "default", "ACL SAVE"));
        assertTrue(Files.readString(file, StandardCharsets.ISO_8859_1).startsWith("user default on nopass"));
        Files.writeString(file, "user reader on >r ~* +@nosuch\n");
        final String load = error(command, "ACL LOAD");
        assertTrue(load.startsWith("ERR " + file + ":1: '+@nosuch': Unknown command or category name in ACL. " +
            "WARNING: ACL errors detected, no change"), load);
        assertNotNull(acl.user("reader"));
        assertEquals("$64\r\n", run(command, "default", "ACL GENPASS").substring(0, 5));
        assertEquals("$32\r\n", run(command, "default", "ACL GENPASS 128").substring(0, 5));
        assertTrue(error(command, "ACL GENPASS 5000").startsWith("ERR ACL GENPASS argument must be"));
        assertEquals("ERR value is not an integer or out of range", error(command, "ACL GENPASS x"));
        assertTrue(run(command, "default", "ACL HELP").startsWith("*29\r\n+ACL <subcommand>"));
        acl.log().record("auth", "toplevel", "AUTH", "reader", "id=7", System.currentTimeMillis());
        final String log = run(command, "default", "ACL LOG");
        assertTrue(log.startsWith("*1\r\n") && log.contains("$6\r\nreason\r\n$4\r\nauth\r\n"), log);
        assertEquals("+OK\r\n", run(command, "default", "ACL LOG RESET"));
        assertEquals("*0\r\n", run(command, "default", "ACL LOG"));
        assertEquals("ERR unknown subcommand or wrong number of arguments for 'nope'. Try ACL HELP.",
            error(command, "ACL nope"));
        final AclSubcommands noFile = new AclSubcommands(Acl.create(TestCatalog.catalog(), null, null), null);
        assertTrue(error(noFile, "ACL LOAD").contains("--aclfile"));
        assertTrue(error(noFile, "ACL SAVE").contains("--aclfile"));
    }
}
