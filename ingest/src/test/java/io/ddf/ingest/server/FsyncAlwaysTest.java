package io.ddf.ingest.server;

import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve --fsync always} on the daemon (both execution modes: the build runs this suite in each): the replies
 * of writes go through group commits and keep their values and order, those of reads wait for none, the raw feed's
 * verdicts come back in order through them, and INFO persistence says so. What a power cut takes is
 * {@link DaemonPowerCutIT}'s.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FsyncAlwaysTest
{
    @TempDir
    Path dir;

    private static void always(final ServerConfig c)
    {
        c.fsync = SyncPolicy.ALWAYS;
    }

    private static long commits(final RespClient c) throws IOException
    {
        return Long.parseLong(field(c, "group_commits"));
    }

    private static String field(final RespClient c, final String name) throws IOException
    {
        for (final String line : ((String)c.call("INFO", "persistence")).split("\r\n"))
        {
            if (line.startsWith(name + ":"))
            {
                return line.substring(name.length() + 1);
            }
        }
        throw new AssertionError("INFO persistence has no " + name);
    }

    @Test
    void writesAreAcknowledgedThroughGroupCommitsReadsAreNot() throws Exception
    {
        try (TestServer server = new TestServer(dir, FsyncAlwaysTest::always);
             RespClient c = server.client())
        {
            assertEquals("always", field(c, "ddf_fsync"));
            assertEquals("OK", c.call("BF.RESERVE", "b", "0.01", "100000"));
            long before = commits(c);
            assertEquals(1L, c.call("BF.ADD", "b", "x"));
            assertTrue(commits(c) > before, "BF.ADD's reply waited for a commit");
            before = commits(c);
            assertEquals(List.of(0L, 1L, 0L), c.call("BF.MADD", "b", "x", "y", "y"));
            assertTrue(commits(c) > before, "BF.MADD's reply waited for a commit");
            assertEquals(1L, c.call("CF.ADD", "c", "x"));
            before = commits(c);
            assertEquals(1L, c.call("CF.DEL", "c", "x"));
            assertTrue(commits(c) > before, "CF.DEL's reply waited for a commit");
            before = commits(c);
            assertEquals(1L, c.call("BF.EXISTS", "b", "x"));
            assertEquals(List.of(1L, 0L), c.call("BF.MEXISTS", "b", "y", "z"));
            assertEquals(0L, c.call("CF.EXISTS", "c", "x"));
            assertEquals(before, commits(c), "reads wait for no commit");
            assertEquals("ok", field(c, "last_fsync_status"));
            assertEquals("0", field(c, "fsync_errors"));
            assertTrue(Double.parseDouble(field(c, "last_fsync_ms")) >= 0);
        }
    }

    /**
     * The daemon's default filters, those that grow (a scaling chain for BF.*, RedisBloom's cuckoo filter for CF.*):
     * their writes' replies wait for a commit too, their reads' for none.
     */
    @Test
    void writesToTheFiltersThatGrowAreAcknowledgedThroughGroupCommits() throws Exception
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            always(c);
            c.pastCapacity = ServerConfig.PastCapacity.SCALE;
        });
             RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "chain", "x"));
            assertEquals("MBbloom--", c.call("TYPE", "chain"));
            long before = commits(c);
            assertEquals(1L, c.call("BF.ADD", "chain", "y"));
            assertTrue(commits(c) > before, "BF.ADD's reply on a chain waited for a commit");
            before = commits(c);
            assertEquals(List.of(0L, 1L), c.call("BF.MADD", "chain", "x", "z"));
            assertTrue(commits(c) > before, "BF.MADD's");
            before = commits(c);
            assertEquals(List.of(1L), c.call("BF.INSERT", "chain", "ITEMS", "w"));
            assertTrue(commits(c) > before, "BF.INSERT's");
            assertEquals(1L, c.call("CF.ADD", "cuckoo", "x"));
            assertEquals("MBbloomCF", c.call("TYPE", "cuckoo"));
            before = commits(c);
            assertEquals(1L, c.call("CF.ADD", "cuckoo", "y"));
            assertTrue(commits(c) > before, "CF.ADD's");
            before = commits(c);
            assertEquals(1L, c.call("CF.DEL", "cuckoo", "x"));
            assertTrue(commits(c) > before, "CF.DEL's");
            before = commits(c);
            assertEquals(1L, c.call("BF.EXISTS", "chain", "x"));
            assertEquals(List.of(1L, 0L), c.call("BF.MEXISTS", "chain", "y", "v"));
            assertEquals(1L, c.call("CF.EXISTS", "cuckoo", "y"));
            assertEquals(4L, c.call("BF.CARD", "chain"));
            assertEquals(before, commits(c), "reads wait for no commit");
            assertEquals("0", field(c, "fsync_errors"));
        }
    }

    /**
     * One write of many commands, writes and reads interleaved, as a pipelining client sends them: every reply in
     * order and right (an exact set's), though the writes' replies wait for commits and the reads' do not.
     */
    @Test
    void pipelinedWritesAndReadsKeepTheirOrder() throws Exception
    {
        final Random random = new Random(TestSeed.seed());
        try (TestServer server = new TestServer(dir, FsyncAlwaysTest::always);
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "p", "0.0000001", "100000"));
            final Set<String> added = new HashSet<>();
            final List<Object> expected = new ArrayList<>();
            final ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < 3000; i++)
            {
                final String item = "i" + random.nextInt(1500);
                switch (random.nextInt(4))
                {
                    case 0, 1 ->
                    {
                        batch.write(RespClient.encode("BF.ADD", "p", item));
                        expected.add(added.add(item) ? 1L : 0L);
                    }
                    case 2 ->
                    {
                        batch.write(RespClient.encode("BF.EXISTS", "p", item));
                        expected.add(added.contains(item) ? 1L : 0L);
                    }
                    default ->
                    {
                        batch.write(RespClient.encode("PING"));
                        expected.add("PONG");
                    }
                }
            }
            final OutputStream out = c.socket().getOutputStream();
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
            {
                try
                {
                    out.write(batch.toByteArray());
                    out.flush();
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (int i = 0; i < expected.size(); i++)
            {
                assertEquals(expected.get(i), c.read(), "reply " + i + " " + TestSeed.replayHint());
            }
            writer.get(30, TimeUnit.SECONDS);
        }
    }

    /** In both of {@code --feed-mode}'s ways: inline the verdicts are taken at once and held by the gate alone. */
    @ParameterizedTest
    @EnumSource(value = ServerConfig.FeedMode.class, names = {"INLINE", "RING"})
    void theFeedsVerdictsComeBackInOrderThroughCommits(final ServerConfig.FeedMode mode) throws Exception
    {
        final Random random = new Random(TestSeed.seed());
        final List<String> records = new ArrayList<>();
        for (int i = 0; i < 30_000; i++)
        {
            records.add("rec-" + random.nextInt(10_000));
        }
        final Set<String> seen = new HashSet<>();
        final StringBuilder expected = new StringBuilder();
        final StringBuilder text = new StringBuilder();
        for (final String r : records)
        {
            expected.append(seen.add(r) ? 'U' : 'D');
            text.append(r).append('\n');
        }
        try (TestServer server = new TestServer(dir, c ->
        {
            always(c);
            c.feedPort = 0;
            c.feedMode = mode;
            c.defaultCapacity = 1_000_000;
            c.defaultErrorRate = 0.000001;
        });
             Socket socket = new Socket("127.0.0.1", server.server.feedPort());
             RespClient c = server.client())
        {
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
            {
                try
                {
                    socket.getOutputStream().write(text.toString().getBytes(StandardCharsets.UTF_8));
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expected.toString(), new String(verdicts, StandardCharsets.US_ASCII), TestSeed.replayHint());
            assertTrue(commits(c) > 0, "the feed's verdicts waited for commits");
        }
    }
}
