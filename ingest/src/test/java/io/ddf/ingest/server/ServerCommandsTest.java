package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection and server commands clients and tools send (commands.server.ServerCommands): CLIENT
 * INFO/LIST/GETNAME/SETNAME/ID/REPLY/HELP, HELLO and the start-up commands client libraries send, INFO with sections,
 * MEMORY HELP, COMMAND (its ACL categories and docs). MULTI/EXEC/DISCARD: TransactionCommandsTest; KEYS, SCAN,
 * FLUSHALL, MEMORY USAGE: KeyspaceCommandsTest.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerCommandsTest extends SharedServerTestBase
{
    @Test
    void clientKeepsItsNameAndListsEveryConnection() throws IOException, InterruptedException
    {
        final RespClient a = server.client();
        try (RespClient b = server.client())
        {
            assertEquals(null, a.call("CLIENT", "GETNAME"));
            assertEquals("OK", a.call("CLIENT", "SETNAME", "worker-1"));
            assertEquals("worker-1", a.call("CLIENT", "GETNAME"));
            assertTrue(((String)a.call("CLIENT", "SETNAME", "two words")).startsWith("-ERR Client names cannot"));
            assertEquals("worker-1", a.call("CLIENT", "GETNAME"));
            assertEquals("OK", a.call("CLIENT", "SETINFO", "LIB-NAME", "redis-py"));
            final long idA = (Long)a.call("CLIENT", "ID");
            final long idB = (Long)b.call("CLIENT", "ID");
            final String info = (String)a.call("CLIENT", "INFO");
            assertTrue(info.startsWith("id=" + idA + " addr=127.0.0.1:" + a.socket().getLocalPort() + " "), info);
            assertTrue(info.contains(" name=worker-1 ") && info.contains(" cmd=client ") &&
                info.contains(" resp=2 ") && info.contains(" lib-name=redis-py "), info);
            assertTrue(info.endsWith("\n") && info.indexOf('\n') == info.length() - 1, info);
            final String list = (String)b.call("CLIENT", "LIST");
            assertTrue(list.contains("id=" + idA + " ") && list.contains("id=" + idB + " "), list);
            assertEquals(list.lines().count(), list.chars().filter(ch -> ch == '\n').count());
            final String onlyA = (String)b.call("CLIENT", "LIST", "ID", Long.toString(idA));
            assertTrue(onlyA.startsWith("id=" + idA + " ") && onlyA.lines().count() == 1, onlyA);
            assertTrue(((String)b.call("CLIENT", "LIST", "ID", "x")).startsWith("-ERR Invalid client ID"));
            a.close();
            // the close reaches the daemon asynchronously: wait for it (bounded by the test's timeout)
            while (((String)b.call("CLIENT", "LIST")).contains("id=" + idA + " "))
            {
                Thread.sleep(10);
            }
        }
        finally
        {
            a.close();
        }
    }

    @Test
    void infoGivesOnlyTheSectionsAsked() throws IOException
    {
        try (RespClient c = server.client())
        {
            final String all = (String)c.call("INFO");
            for (final String header : List.of("# Server", "# Clients", "# Stats", "# Keyspace"))
            {
                assertTrue(all.contains(header), all);
            }
            // the same sections as INFO default (their live figures, uptime or memory, may move between the calls)
            assertEquals(headers(all), headers((String)c.call("INFO", "default")));
            final String everything = (String)c.call("INFO", "everything");
            assertTrue(everything.contains("# Commandstats") && !all.contains("# Commandstats"), everything);
            final String server = (String)c.call("INFO", "server");
            assertTrue(server.startsWith("# Server\r\n") && server.contains("redis_version:"), server);
            assertFalse(server.contains("# Clients") || server.contains("connected_clients"), server);
            final String two = (String)c.call("INFO", "STATS", "clients");
            assertTrue(two.startsWith("# Clients\r\n") && two.contains("\r\n\r\n# Stats\r\n"), two);
            assertFalse(two.contains("# Server") || two.contains("# Keyspace"), two);
            assertEquals("", c.call("INFO", "nosuchsection"));
        }
    }

    private static List<String> headers(final String info)
    {
        return info.lines().filter(line -> line.startsWith("# ")).toList();
    }

    @Test
    void memoryHelpAndClientHelpListTheirSubcommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            final List<?> memory = (List<?>)c.call("MEMORY", "HELP");
            assertTrue(memory.size() >= 3, String.valueOf(memory));
            assertTrue(String.valueOf(memory.get(0)).startsWith("MEMORY <subcommand>"), String.valueOf(memory));
            assertTrue(memory.stream().anyMatch(l -> String.valueOf(l).startsWith("USAGE <key>")),
                String.valueOf(memory));
            final List<?> client = (List<?>)c.call("CLIENT", "HELP");
            assertTrue(String.valueOf(client.get(0)).startsWith("CLIENT <subcommand>"), String.valueOf(client));
            for (final String sub : List.of("ID", "INFO", "LIST", "GETNAME", "SETNAME", "SETINFO", "REPLY", "HELP"))
            {
                assertTrue(client.stream().anyMatch(l -> String.valueOf(l).startsWith(sub)), sub + ": " + client);
            }
            // the errors that point to them still come for an unknown subcommand
            assertEquals("-ERR unknown subcommand 'bogus'. Try MEMORY HELP.", c.call("MEMORY", "BOGUS"));
            assertEquals("-ERR unknown subcommand 'bogus'. Try CLIENT HELP.", c.call("CLIENT", "BOGUS"));
        }
    }

    @Test
    void clientReplyOffAndSkipAreRefusedAndEveryCommandStillAnswered() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("CLIENT", "REPLY", "ON"));
            final Object off = c.call("CLIENT", "REPLY", "OFF");
            assertTrue(String.valueOf(off).startsWith("-ERR CLIENT REPLY OFF"), String.valueOf(off));
            final Object skip = c.call("CLIENT", "REPLY", "SKIP");
            assertTrue(String.valueOf(skip).startsWith("-ERR CLIENT REPLY SKIP"), String.valueOf(skip));
            assertEquals("-ERR syntax error", c.call("CLIENT", "REPLY", "SOMETIMES"));
            assertTrue(String.valueOf(c.call("CLIENT", "REPLY")).startsWith("-ERR wrong number"));
            // replies did not stop: the next command is answered, in order
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void commandDescribesDdfsOwnCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            final List<Object> names = KeyspaceCommandsTest.list(c.call("COMMAND", "LIST"));
            assertEquals((long)names.size(), c.call("COMMAND", "COUNT"));
            for (final String name : List.of("bf.add", "scan", "multi", "flushall", "client", "hello"))
            {
                assertTrue(names.contains(name), name);
                final List<Object> info = KeyspaceCommandsTest.list(KeyspaceCommandsTest.list(c.call("COMMAND", "INFO", name)).get(0));
                assertEquals(name, info.get(0));
                assertEquals(10, info.size());
                final List<Object> docs = KeyspaceCommandsTest.list(c.call("COMMAND", "DOCS", name));
                assertEquals(name, docs.get(0));
                assertTrue(((String)KeyspaceCommandsTest.list(docs.get(1)).get(1)).length() > 10, docs::toString);
            }
        }
    }

    /** Each command's ACL categories are Redis 7's (and RedisBloom's @bloom / @cuckoo): the seam ACL users check. */
    @Test
    void commandInfoGivesRedissAclCategories() throws IOException
    {
        final java.util.Map<String, List<String>> expected = new java.util.LinkedHashMap<>();
        expected.put("ping", List.of("@fast", "@connection"));
        expected.put("auth", List.of("@fast", "@connection"));
        expected.put("keys", List.of("@keyspace", "@read", "@slow", "@dangerous"));
        expected.put("flushall", List.of("@keyspace", "@write", "@slow", "@dangerous"));
        expected.put("config", List.of("@admin", "@slow", "@dangerous"));
        expected.put("info", List.of("@slow", "@dangerous"));
        expected.put("dbsize", List.of("@keyspace", "@read", "@fast"));
        expected.put("unlink", List.of("@keyspace", "@write", "@fast"));
        expected.put("exec", List.of("@slow", "@transaction"));
        expected.put("multi", List.of("@fast", "@transaction"));
        expected.put("command", List.of("@slow", "@connection"));
        expected.put("bf.exists", List.of("@read", "@fast", "@bloom"));
        expected.put("cf.add", List.of("@write", "@slow", "@cuckoo"));
        try (RespClient c = server.client())
        {
            final List<?> infos = (List<?>)c.call(java.util.stream.Stream.concat(java.util.stream.Stream.of("COMMAND",
                "INFO"), expected.keySet().stream()).toArray(String[]::new));
            int i = 0;
            for (final java.util.Map.Entry<String, List<String>> e : expected.entrySet())
            {
                final List<?> info = (List<?>)infos.get(i++);
                assertEquals(e.getKey(), info.get(0));
                assertEquals(e.getValue(), info.get(6), e.getKey());
            }
        }
    }

    @Test
    void clientStartupCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertTrue(((List<?>)c.call("COMMAND")).size() > 5);
            assertTrue((Long)c.call("COMMAND", "COUNT") > 5);
            assertTrue(((List<?>)c.call("COMMAND", "DOCS")).size() > 5);
            // one table answers COMMAND and dispatch: every listed command is served, in Redis's INFO shape
            final List<?> names = (List<?>)c.call("COMMAND", "LIST");
            assertEquals((long)names.size(), c.call("COMMAND", "COUNT"));
            assertEquals(((List<?>)c.call("COMMAND")).size(), names.size());
            assertTrue(names.containsAll(List.of("bf.add", "bf.reserve", "ping", "command", "del")), names.toString());
            // the ACL categories as Redis lists them (its own, in its order, then RedisBloom's), the ones checked
            assertEquals(List.of(List.of("bf.add", 3L, List.of("write", "denyoom"), 1L, 1L, 1L,
                List.of("@write", "@slow", "@bloom"), List.of(), List.of(), List.of()), List.of("del", -2L,
                List.of("write"), 1L, -1L, 1L, List.of("@keyspace", "@write", "@slow"), List.of(), List.of(),
                List.of())), c.call("COMMAND", "INFO", "BF.ADD", "del"));
            assertEquals(java.util.Arrays.asList((Object)null), c.call("COMMAND", "INFO", "no-such"));
            assertEquals(List.of("ping", List.of("summary", "PONG, or the argument.", "group", "connection")),
                c.call("COMMAND", "DOCS", "ping"));
            for (final Object name : names)
            {
                if (name.equals("quit"))
                {
                    continue;
                }
                final Object reply = c.call(((String)name).toUpperCase(java.util.Locale.ROOT), "x", "y", "z", "w", "v");
                assertFalse(String.valueOf(reply).startsWith("-ERR unknown command"), name + ": " + reply);
            }
            assertEquals(List.of("save", "", "appendonly", "no"), c.call("CONFIG", "GET", "save", "appendonly"));
            assertEquals(List.of(), c.call("CONFIG", "GET", "no-such-thing"));
            assertEquals("OK", c.call("CLIENT", "SETINFO", "lib-name", "test"));
            assertEquals("OK", c.call("SELECT", "0"));
            final String info = (String)c.call("INFO");
            for (final String field : List.of("# Server", "# Stats", "redis_version:", "uptime_in_seconds:",
                "connected_clients:", "elements:", "duplicates:", "filters:"))
            {
                assertTrue(info.contains(field), field + " in " + info);
            }
            assertEquals("OK", c.call("QUIT"));
            assertTrue(c.closedByServer());
        }
    }
}
