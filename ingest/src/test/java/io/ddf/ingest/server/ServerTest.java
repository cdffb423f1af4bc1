package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The RESP front in process, through the real pipeline: commands, replies, order, errors. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerTest extends SharedServerTestBase
{
    @Test
    void bloomCommandsAnswerLikeRedisBloom() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("PONG", c.call("PING"));
            assertEquals("hi", c.call("PING", "hi"));
            assertEquals("OK", c.call("BF.RESERVE", "cmds", "0.001", "10000"));
            assertEquals("-ERR item exists", c.call("BF.RESERVE", "cmds", "0.001", "10000"));
            assertEquals(1L, c.call("BF.ADD", "cmds", "a"));
            assertEquals(0L, c.call("BF.ADD", "cmds", "a"));
            assertEquals(List.of(0L, 1L, 1L, 0L), c.call("BF.MADD", "cmds", "a", "b", "c", "b"));
            assertEquals(1L, c.call("BF.EXISTS", "cmds", "b"));
            assertEquals(0L, c.call("BF.EXISTS", "cmds", "zz"));
            assertEquals(List.of(1L, 0L, 1L), c.call("BF.MEXISTS", "cmds", "a", "zz", "c"));
            assertEquals(0L, c.call("BF.EXISTS", "missing", "a"));
            assertEquals(List.of(0L, 0L), c.call("BF.MEXISTS", "missing", "a", "b"));
            assertEquals(0L, c.call("EXISTS", "missing"));
            // the default filter grows as RedisBloom's does: its BF.INFO is RedisBloom 2.4's, field for field
            @SuppressWarnings("unchecked")
            final List<Object> info = (List<Object>)c.call("BF.INFO", "cmds");
            assertEquals("Capacity", info.get(0));
            assertEquals(10000L, info.get(1));
            assertEquals("Size", info.get(2));
            assertEquals("Number of filters", info.get(4));
            assertEquals(1L, info.get(5));
            assertEquals("Number of items inserted", info.get(6));
            assertEquals(3L, info.get(7));
            assertEquals("Expansion rate", info.get(8));
            assertEquals(2L, info.get(9));
            assertEquals(List.of(3L), c.call("BF.INFO", "cmds", "ITEMS"));
            assertEquals("-ERR not found", c.call("BF.INFO", "missing"));
            // a missing key is made by BF.ADD, as RedisBloom does: capacity 100, growing from there
            assertEquals(1L, c.call("BF.ADD", "made", "x"));
            assertEquals(List.of(100L), c.call("BF.INFO", "made", "CAPACITY"));
            assertEquals(1L, c.call("DEL", "made", "nosuch"));
            assertEquals(0L, c.call("EXISTS", "made"));
            assertEquals(1L, c.call("BF.ADD", "made", "x"));
        }
    }

    @Test
    void errorsAreRedisStyleAndKeepTheConnection() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("-ERR wrong number of arguments for 'bf.add' command", c.call("BF.ADD", "k"));
            assertEquals("-ERR wrong number of arguments for 'bf.add' command", c.call("bf.add", "k", "a", "b"));
            assertTrue(((String)c.call("FROB", "x")).startsWith("-ERR unknown command 'FROB'"));
            assertEquals("-ERR bad error rate", c.call("BF.RESERVE", "e", "x", "10"));
            // RedisBloom 2.4's words, its trailing space included
            assertEquals("-ERR (0 < error rate range < 1) ", c.call("BF.RESERVE", "e", "1.5", "10"));
            assertEquals("-ERR bad capacity", c.call("BF.RESERVE", "e", "0.1", "ten"));
            assertEquals("-ERR (capacity should be larger than 0)", c.call("BF.RESERVE", "e", "0.1", "0"));
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "nosuch")).startsWith("-ERR unknown filter"));
            // a word that is neither RedisBloom's nor ddf's is ignored, as RedisBloom ignores it
            assertEquals("OK", c.call("BF.RESERVE", "e", "0.1", "10", "bogus", "1"));
            assertEquals(1L, c.call("DEL", "e"));
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "fifo-bloom", "bogus", "1"))
                .startsWith("-ERR unknown parameter"));
            final String notQht = (String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "qht", "max-kicks", "4");
            assertTrue(notQht.startsWith("-ERR") && notQht.contains("max-kicks"), notQht);
            assertTrue(((String)c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "sqf", "rows", "64"))
                .startsWith("-ERR capacity and error rate do not size KIND sqf"));
            assertEquals("OK", c.call("BF.RESERVE", "e", "0.1", "10", "KIND", "qht", "SEED", "7"));
            @SuppressWarnings("unchecked")
            final List<Object> info = (List<Object>)c.call("BF.INFO", "e");
            assertTrue(info.contains("qht") && info.contains("seed") && info.contains("7"), info::toString);
            final String tooLong = "x".repeat(server.config.maxItemBytes + 1);
            assertTrue(((String)c.call("BF.ADD", "e", tooLong)).startsWith("-ERR item of"));
            assertEquals("PONG", c.call("PING"));
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

    @Test
    void inlineCommands() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("PING\r\nBF.ADD inl a\r\nBF.ADD inl a\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("PONG", c.read());
            assertEquals(1L, c.read());
            assertEquals(0L, c.read());
        }
    }

    /** Pipelined requests mixing pipeline-judged commands and immediate ones come back in request order. */
    @Test
    void pipelinedMixedCommandsReplyInOrder() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "order", "0.000001", "100000"));
            final ByteArrayOutputStream requests = new ByteArrayOutputStream();
            final List<Object> expected = new ArrayList<>();
            final Set<String> seen = new HashSet<>();
            for (int i = 0; i < 20_000; i++)
            {
                final String item = "e" + random.nextInt(3000);
                switch (random.nextInt(5))
                {
                    case 0 ->
                    {
                        requests.writeBytes(RespClient.encode("PING", "p" + i));
                        expected.add("p" + i);
                    }
                    case 1 ->
                    {
                        requests.writeBytes(RespClient.encode("BF.EXISTS", "order", item));
                        expected.add(seen.contains(item) ? 1L : 0L);
                    }
                    case 2 ->
                    {
                        final String other = "e" + random.nextInt(3000);
                        requests.writeBytes(RespClient.encode("BF.MADD", "order", item, other));
                        final long first = seen.add(item) ? 1L : 0L;
                        expected.add(List.of(first, seen.add(other) ? 1L : 0L));
                    }
                    default ->
                    {
                        requests.writeBytes(RespClient.encode("BF.ADD", "order", item));
                        expected.add(seen.add(item) ? 1L : 0L);
                    }
                }
            }
            final Thread writer = new Thread(() ->
            {
                try
                {
                    c.sendRaw(requests.toByteArray());
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writer.start();
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), c.read(), "reply " + i + " (seed " + seed + ")");
            }
        }
    }

    @Test
    void oneByteAtATime() throws IOException
    {
        try (RespClient c = server.client())
        {
            final byte[] bytes = concat(RespClient.encode("BF.ADD", "slow", "a"), RespClient.encode("PING"),
                RespClient.encode("BF.ADD", "slow", "a"), "PING\r\n".getBytes(StandardCharsets.US_ASCII));
            for (final byte b : bytes)
            {
                c.sendRaw(new byte[] {b});
            }
            assertEquals(1L, c.read());
            assertEquals("PONG", c.read());
            assertEquals(0L, c.read());
            assertEquals("PONG", c.read());
        }
    }

    /** A connection idle longer than --idle-timeout is closed; active ones and new ones are served. */
    @Test
    void idleConnectionsAreClosed() throws Exception
    {
        try (TestServer idle = new TestServer(dir.resolve("idle-data"), c -> c.idleTimeoutSeconds = 1);
             RespClient quiet = idle.client();
             RespClient busy = idle.client())
        {
            assertEquals("PONG", quiet.call("PING").toString());
            final long start = System.nanoTime();
            for (int i = 0; i < 6; i++) // keep busy active past the timeout
            {
                Thread.sleep(400);
                assertEquals("PONG", busy.call("PING").toString());
            }
            assertTrue(quiet.closedByServer(), "an idle connection was not closed");
            assertTrue(System.nanoTime() - start >= 1_000_000_000L);
            assertEquals("PONG", busy.call("PING").toString());
            try (RespClient fresh = idle.client())
            {
                assertEquals("PONG", fresh.call("PING").toString());
            }
        }
    }

    @Test
    void oversizedBulkIsRefusedAndClosed() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw(("*2\r\n$4\r\nECHO\r\n$" + (server.config.maxBulkBytes + 1) + "\r\nabc").getBytes(
                StandardCharsets.US_ASCII));
            final Object reply = c.read();
            assertTrue(reply.toString().startsWith("-ERR Protocol error"), reply::toString);
            assertTrue(c.closedByServer());
        }
        stillServes();
    }

    @Test
    void hugeArrayHeaderIsRefusedAndClosed() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*2000000000\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        try (RespClient c = server.client())
        {
            c.sendRaw("*1\r\n*1\r\n*1\r\n*1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        stillServes();
    }

    @Test
    void garbageGetsAnErrorAndAClose() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*abc\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        for (int round = 0; round < 20; round++)
        {
            try (RespClient c = server.client())
            {
                final byte[] garbage = new byte[1 + random.nextInt(4096)];
                random.nextBytes(garbage);
                garbage[0] = (byte)"*$+-:"
                    .charAt(random.nextInt(5));
                try
                {
                    c.sendRaw(garbage);
                    c.socket().shutdownOutput();
                    c.closedByServer();
                }
                catch (final IOException e)
                {
                    // the daemon may close before reading all of it
                }
            }
        }
        stillServes();
    }

    @Test
    void clientDisconnectingMidFrame() throws IOException
    {
        for (int i = 0; i < 50; i++)
        {
            try (RespClient c = server.client())
            {
                c.sendRaw(("*3\r\n$6\r\nBF.ADD\r\n$3\r\nmid\r\n$100\r\nabc").getBytes(StandardCharsets.US_ASCII));
            }
        }
        stillServes();
    }

    static void stillServes() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void foreignFilesAreReportedAnsweredWithTheirReasonAndDeletedByDel() throws IOException
    {
        final Path data = dir.resolve("foreign");
        Files.createDirectories(data);
        final byte[] junk = new byte[8192];
        new Random(1).nextBytes(junk);
        Files.write(data.resolve("junk.ddf"), junk);
        Files.writeString(data.resolve("notes.txt"), "not a filter\n");
        try (TestServer other = new TestServer(data, c -> { }); RespClient c = other.client())
        {
            final String log = other.log();
            assertTrue(log.contains("cannot open") && log.contains("junk.ddf"), log);
            assertTrue(log.contains("notes.txt"), log);
            assertTrue(log.contains("0 filters loaded"), log);
            final String error = c.call("BF.ADD", "junk", "a").toString();
            assertTrue(error.startsWith("-ERR") && error.contains("junk.ddf") &&
                error.contains("not a ddf filter file") && error.contains("DEL junk"), error);
            assertTrue(java.util.Arrays.equals(junk, Files.readAllBytes(data.resolve("junk.ddf"))),
                "left unchanged until DEL");
            assertEquals(1L, c.call("DEL", "junk"));
            assertFalse(Files.exists(data.resolve("junk.ddf")));
            assertEquals(1L, c.call("BF.ADD", "junk", "a"), "the key can be made again");
            assertEquals(1L, c.call("BF.ADD", "fine", "a"));
        }
        assertTrue(Files.exists(data.resolve("fine.ddfs")), "a filter that grows, the default");
    }

    @Test
    void aFilterWhoseTableChangedOnDiskIsRefusedNamingTheFileUntilDel() throws IOException
    {
        final Path data = dir.resolve("corrupt");
        // ddf's fixed-size filters, whose table's checksum this is about (--past-capacity forget)
        try (TestServer first = new TestServer(data, ServerTest::forget); RespClient c = first.client())
        {
            assertEquals(1L, c.call("BF.ADD", "victim", "a"));
            assertEquals(1L, c.call("BF.ADD", "healthy", "a"));
        }
        // Flip a byte of the table (offset 4096 on) of the cleanly closed file.
        final Path victim = data.resolve("victim.ddf");
        final byte[] bytes = Files.readAllBytes(victim);
        bytes[4096 + 17] ^= 0x40;
        Files.write(victim, bytes);
        try (TestServer second = new TestServer(data, c -> { }); RespClient c = second.client())
        {
            assertTrue(second.log().contains("victim.ddf") && second.log().contains("table checksum mismatch"),
                second.log());
            final String error = c.call("BF.EXISTS", "victim", "a").toString();
            assertTrue(error.startsWith("-ERR") && error.contains("victim.ddf") && error.contains("checksum"), error);
            assertEquals(0L, c.call("BF.ADD", "healthy", "a"), "the other filters are served");
            assertEquals(1L, c.call("DEL", "victim"));
            assertEquals(1L, c.call("BF.ADD", "victim", "a"));
        }
    }

    @Test
    void leftoversOfAnUnfinishedCreationAreRemovedAtStartAndLogged() throws IOException
    {
        final Path data = dir.resolve("leftover");
        Files.createDirectories(data);
        final Path leftover = data.resolve(".ddf-creating-1234abcd-big.ddf");
        Files.write(leftover, new byte[65536]);
        try (TestServer server = new TestServer(data, c -> { }); RespClient c = server.client())
        {
            assertTrue(server.log().contains("removed " + leftover), server.log());
            assertFalse(Files.exists(leftover));
            assertEquals(1L, c.call("BF.ADD", "big", "a"));
        }
    }

    @Test
    void theFilterCapRefusesNamingTheLimitAndHowToRaiseIt() throws IOException
    {
        try (TestServer capped = new TestServer(dir.resolve("capped"), c -> c.maxFilters = 2);
             RespClient c = capped.client())
        {
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals(1L, c.call("BF.ADD", "b", "x"));
            final String error = c.call("BF.ADD", "c", "x").toString();
            assertTrue(error.startsWith("-ERR filter limit reached") && error.contains("at most 2 filters") &&
                error.contains("--max-filters") && error.contains("ulimit -n"), error);
            assertTrue(c.call("BF.RESERVE", "d", "0.01", "100").toString().contains("filter limit reached"));
            assertEquals(1L, c.call("DEL", "a"));
            assertEquals(1L, c.call("BF.ADD", "c", "x"));
        }
    }

    @Test
    void theDataDirectoryIsOwnerOnly() throws IOException
    {
        final Path data = dir.resolve("private");
        try (TestServer server = new TestServer(data, c -> { }); RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "k", "x"));
        }
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data)));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data.resolve("k.ddfs"))));
    }

    @Test
    void restartKeepsFiltersAndOddKeysRoundTrip() throws IOException
    {
        final Path data = dir.resolve("restart");
        final String odd = "a/b c.%é";
        try (TestServer first = new TestServer(data, c -> { }); RespClient c = first.client())
        {
            assertEquals(1L, c.call("BF.ADD", odd, "x"));
            assertEquals(List.of(1L, 1L), c.call("BF.MADD", "plain", "x", "y"));
        }
        try (TestServer second = new TestServer(data, c -> { }); RespClient c = second.client())
        {
            assertTrue(second.log().contains("2 filters loaded"), second.log());
            assertEquals(0L, c.call("BF.ADD", odd, "x"));
            assertEquals(List.of(0L, 0L, 1L), c.call("BF.MADD", "plain", "x", "y", "z"));
        }
    }

    @Test
    void passwordRequired() throws IOException
    {
        try (TestServer secured = new TestServer(dir.resolve("auth"), c -> c.requirePass = "s3cret");
             RespClient c = secured.client())
        {
            assertEquals("-NOAUTH Authentication required.", c.call("PING"));
            assertEquals("-NOAUTH Authentication required.", c.call("BF.ADD", "k", "a"));
            assertTrue(c.call("AUTH", "wrong").toString().startsWith("-WRONGPASS"));
            assertEquals("OK", c.call("AUTH", "s3cret"));
            assertEquals(1L, c.call("BF.ADD", "k", "a"));
        }
    }

    @Test
    void maxClients() throws IOException
    {
        try (TestServer small = new TestServer(dir.resolve("max"), c -> c.maxClients = 2);
             RespClient a = small.client())
        {
            final RespClient b = small.client();
            assertEquals("PONG", a.call("PING"));
            assertEquals("PONG", b.call("PING"));
            try (RespClient extra = small.client())
            {
                assertEquals("-ERR max number of clients reached", extra.read());
                assertTrue(extra.closedByServer());
            }
            assertEquals("PONG", a.call("PING"));
            b.close();
            // the slot frees once the daemon has seen the close
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (true)
            {
                try (RespClient again = small.client())
                {
                    final Object reply = again.call("PING");
                    if ("PONG".equals(reply) || System.nanoTime() > deadline)
                    {
                        assertEquals("PONG", reply);
                        break;
                    }
                }
                catch (final IOException e)
                {
                    assertTrue(System.nanoTime() < deadline, e.toString());
                }
            }
        }
    }

    /** A client that never reads its replies is disconnected once they exceed the output limit. */
    @Test
    void clientThatNeverReadsIsDisconnected() throws IOException
    {
        try (TestServer limited = new TestServer(dir.resolve("limit"), c -> c.clientOutputLimit = 1 << 20);
             RespClient c = limited.client())
        {
            final byte[] request = RespClient.encode("ECHO", "y".repeat(16 * 1024));
            final byte[] batch = new byte[request.length * 64];
            for (int i = 0; i < 64; i++)
            {
                System.arraycopy(request, 0, batch, i * request.length, request.length);
            }
            boolean disconnected = false;
            long sent = 0;
            try
            {
                while (sent < (2L << 30))
                {
                    c.sendRaw(batch);
                    sent += batch.length;
                }
            }
            catch (final IOException e)
            {
                disconnected = true;
            }
            assertTrue(disconnected, "still connected after " + sent + " bytes");
            try (RespClient other = limited.client())
            {
                assertEquals("PONG", other.call("PING"));
            }
        }
    }

    @Test
    void deleteWhileAnotherClientAdds() throws Exception
    {
        try (RespClient adder = server.client(); RespClient deleter = server.client())
        {
            final ByteArrayOutputStream many = new ByteArrayOutputStream();
            for (int i = 0; i < 5000; i++)
            {
                many.writeBytes(RespClient.encode("BF.ADD", "churn", "i" + i));
            }
            adder.sendRaw(many.toByteArray());
            for (int i = 0; i < 20; i++)
            {
                final Object deleted = deleter.call("DEL", "churn");
                assertTrue(deleted.equals(0L) || deleted.equals(1L), String.valueOf(deleted));
            }
            for (int i = 0; i < 5000; i++)
            {
                final Object reply = adder.read();
                assertTrue(reply.equals(0L) || reply.equals(1L), String.valueOf(reply));
            }
            assertEquals("PONG", adder.call("PING"));
        }
    }

    /** As in Redis, QUIT ends the connection where it stands: a command pipelined after it does not run. */
    @Test
    void nothingPipelinedAfterQuitRuns() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "after-quit", "a"));
            final java.io.ByteArrayOutputStream both = new java.io.ByteArrayOutputStream();
            both.writeBytes(RespClient.encode("QUIT"));
            both.writeBytes(RespClient.encode("BF.ADD", "after-quit", "x"));
            c.sendRaw(both.toByteArray());
            assertEquals("OK", c.read());
            assertTrue(c.closedByServer());
        }
        try (RespClient c = server.client())
        {
            assertEquals(0L, c.call("BF.EXISTS", "after-quit", "x"), "the BF.ADD after QUIT ran");
        }
    }

    @Test
    void nullBulkIsAProtocolError() throws IOException
    {
        try (RespClient c = server.client())
        {
            c.sendRaw("*2\r\n$4\r\nECHO\r\n$-1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.read().toString().startsWith("-ERR Protocol error"));
            assertTrue(c.closedByServer());
        }
    }

    static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }

    /** A suite's own setting for ddf's fixed-size filters: what a missing key gets under --past-capacity forget. */
    static void forget(final ServerConfig config)
    {
        config.pastCapacity = ServerConfig.PastCapacity.FORGET;
    }
}
