package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Redis administration commands clients and tools use: CLIENT INFO/LIST/GETNAME/SETNAME/ID, INFO with
 * sections, MULTI/EXEC/DISCARD, KEYS, SCAN, FLUSHALL, MEMORY USAGE, COMMAND. The tests share one daemon; those
 * where the whole keyspace matters start their own in the class's directory.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AdminCommandsTest extends SharedServerTestBase
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
    void multiQueuesAndExecRunsThemInOrderAsOneReply() throws IOException
    {
        try (RespClient c = server.client(); RespClient other = server.client())
        {
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "tx", "a"));
            assertEquals("QUEUED", c.call("BF.MADD", "tx", "a", "b"));
            assertEquals("QUEUED", c.call("BF.CARD", "tx"));
            assertEquals("QUEUED", c.call("BF.RESERVE", "tx", "0.01", "100"));
            assertEquals("-ERR MULTI calls can not be nested", c.call("MULTI"));
            // nothing queued has run
            assertEquals(0L, other.call("EXISTS", "tx"));
            assertEquals(List.of(1L, List.of(0L, 1L), 2L, "-ERR item exists"), c.call("EXEC"));
            assertEquals(2L, other.call("BF.CARD", "tx"));
            assertEquals("-ERR EXEC without MULTI", c.call("EXEC"));
            assertEquals("-ERR DISCARD without MULTI", c.call("DISCARD"));
            assertEquals("OK", c.call("MULTI"));
            assertEquals(List.of(), c.call("EXEC"));
        }
    }

    @Test
    void discardAndAQueuingErrorRunNothing() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "discarded", "a"));
            assertEquals("OK", c.call("DISCARD"));
            assertEquals(0L, c.call("EXISTS", "discarded"));
            assertEquals("OK", c.call("MULTI"));
            assertEquals("QUEUED", c.call("BF.ADD", "aborted", "a"));
            assertTrue(((String)c.call("NOSUCH", "x")).startsWith("-ERR unknown command"));
            assertTrue(((String)c.call("BF.ADD", "aborted")).startsWith("-ERR wrong number of arguments"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.", c.call("EXEC"));
            assertEquals(0L, c.call("EXISTS", "aborted"));
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void execThatCreatesAFilterRunsBeforeTheCommandsPipelinedAfterIt() throws IOException
    {
        try (RespClient c = server.client())
        {
            final java.io.ByteArrayOutputStream requests = new java.io.ByteArrayOutputStream();
            requests.writeBytes(RespClient.encode("MULTI"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "b"));
            requests.writeBytes(RespClient.encode("BF.EXISTS", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("EXEC"));
            requests.writeBytes(RespClient.encode("BF.ADD", "made-in-tx", "a"));
            requests.writeBytes(RespClient.encode("BF.CARD", "made-in-tx"));
            c.sendRaw(requests.toByteArray());
            assertEquals("OK", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals("QUEUED", c.read());
            assertEquals(List.of(1L, 1L, 1L), c.read());
            assertEquals(0L, c.read());
            assertEquals(2L, c.read());
        }
    }

    @Test
    void keysScanMemoryAndFlushAll() throws IOException
    {
        try (TestServer own = new TestServer(dir.resolve("keyspace"), c -> { }); RespClient c = own.client())
        {
            final Set<String> keys = new TreeSet<>();
            for (int i = 0; i < 25; i++)
            {
                assertEquals("OK", c.call("BF.RESERVE", "k" + i, "0.01", "1000"));
                keys.add("k" + i);
            }
            assertEquals(new TreeSet<>(List.of("k1", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18",
                "k19")), new TreeSet<>(list(c.call("KEYS", "k1*"))));
            assertEquals(keys, new TreeSet<>(list(c.call("KEYS", "*"))));
            assertEquals(List.of(), c.call("KEYS", "nomatch*"));
            assertEquals(keys, scanAll(c, "COUNT", "7"));
            assertEquals(keys, scanAll(c));
            assertEquals(keys, scanAll(c, "TYPE", "MBbloom--"));
            assertEquals(Set.of(), scanAll(c, "TYPE", "string"));
            assertEquals(Set.of("k2", "k20", "k21", "k22", "k23", "k24"), scanAll(c, "MATCH", "k2*", "COUNT", "3"));
            assertEquals("-ERR invalid cursor", c.call("SCAN", "abc"));
            assertEquals("-ERR syntax error", c.call("SCAN", "0", "COUNT", "0"));
            assertEquals("-ERR syntax error", c.call("SCAN", "0", "BOGUS", "1"));
            final long usage = (Long)c.call("MEMORY", "USAGE", "k3");
            assertEquals(Files.size(own.server.store().dir().resolve("k3.ddfs")), usage, "the default filter's file");
            assertTrue(usage > 0);
            assertEquals(null, c.call("MEMORY", "USAGE", "nosuch"));
            assertEquals("OK", c.call("FLUSHALL"));
            assertEquals(0L, c.call("DBSIZE"));
            assertEquals(List.of(), c.call("KEYS", "*"));
            try (Stream<Path> files = Files.list(dir.resolve("keyspace")))
            {
                assertEquals(List.of(), files.filter(f -> !f.getFileName().toString().startsWith(".")).toList());
            }
            assertEquals(1L, c.call("BF.ADD", "again", "a"));
            assertEquals("OK", c.call("FLUSHALL", "ASYNC"));
            assertEquals(0L, c.call("EXISTS", "again"));
            assertEquals("OK", c.call("FLUSHALL", "SYNC"));
            assertEquals("-ERR syntax error", c.call("FLUSHALL", "LATER"));
        }
    }

    @Test
    void flushdbIsFlushallOfTheOneDatabase() throws IOException
    {
        try (TestServer own = new TestServer(dir.resolve("flushdb"), c -> { }); RespClient c = own.client())
        {
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals("OK", c.call("CF.RESERVE", "b", "100"));
            assertEquals("OK", c.call("FLUSHDB"));
            assertEquals(0L, c.call("DBSIZE"));
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals("OK", c.call("FLUSHDB", "ASYNC"));
            assertEquals(0L, c.call("EXISTS", "a"));
            assertEquals("OK", c.call("FLUSHDB", "SYNC"));
            assertEquals("-ERR syntax error", c.call("FLUSHDB", "LATER"));
            assertEquals(1L, c.call("BF.ADD", "kept", "x"));
            assertTrue(String.valueOf(c.call("FLUSHDB", "SYNC", "ASYNC")).startsWith("-ERR wrong number"));
            assertEquals(1L, c.call("DBSIZE"));
        }
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
    void scanReturnsEveryKeyPresentThroughoutWhateverChangesBetweenPages() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (TestServer own = new TestServer(dir.resolve("churn"), c -> { }); RespClient c = own.client())
        {
            final Set<String> live = new HashSet<>();
            for (int i = 0; i < 60; i++)
            {
                c.call("BF.ADD", "s" + i, "a");
                live.add("s" + i);
            }
            final Set<String> throughout = new HashSet<>(live);
            final Set<String> returned = new HashSet<>();
            String cursor = "0";
            int created = 0;
            do
            {
                final List<Object> page = list(c.call("SCAN", cursor, "COUNT", "4"));
                cursor = (String)page.get(0);
                list(page.get(1)).forEach(k -> returned.add((String)k));
                if (random.nextBoolean())
                {
                    final String gone = new ArrayList<>(live).get(random.nextInt(live.size()));
                    c.call("DEL", gone);
                    live.remove(gone);
                    throughout.remove(gone);
                }
                c.call("BF.ADD", "new" + created++, "a");
            }
            while (!cursor.equals("0"));
            throughout.removeAll(returned);
            assertEquals(Set.of(), throughout, "keys present throughout but not returned (seed " + seed + ")");
        }
    }

    @Test
    void commandDescribesDdfsOwnCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            final List<Object> names = list(c.call("COMMAND", "LIST"));
            assertEquals((long)names.size(), c.call("COMMAND", "COUNT"));
            for (final String name : List.of("bf.add", "scan", "multi", "flushall", "client", "hello"))
            {
                assertTrue(names.contains(name), name);
                final List<Object> info = list(list(c.call("COMMAND", "INFO", name)).get(0));
                assertEquals(name, info.get(0));
                assertEquals(10, info.size());
                final List<Object> docs = list(c.call("COMMAND", "DOCS", name));
                assertEquals(name, docs.get(0));
                assertTrue(((String)list(docs.get(1)).get(1)).length() > 10, docs::toString);
            }
        }
    }

    private static Set<String> scanAll(final RespClient c, final String... options) throws IOException
    {
        final Set<String> keys = new TreeSet<>();
        String cursor = "0";
        do
        {
            final String[] args = new String[options.length + 2];
            args[0] = "SCAN";
            args[1] = cursor;
            System.arraycopy(options, 0, args, 2, options.length);
            final List<Object> page = list(c.call(args));
            cursor = (String)page.get(0);
            list(page.get(1)).forEach(k -> assertTrue(keys.add((String)k), "returned twice: " + k));
        }
        while (!cursor.equals("0"));
        return keys;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(final Object reply)
    {
        return (List<Object>)assertInstanceOf(List.class, reply);
    }
}
