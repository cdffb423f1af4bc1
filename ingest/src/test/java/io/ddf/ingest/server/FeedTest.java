package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
 * The raw feed: verdict bytes in order for lines and frames; forward mode sends on only the unseen records. Each
 * case runs in both of {@code --feed-mode}'s ways, inline and through the ring ({@code auto} picks one of them).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FeedTest
{
    @TempDir
    Path dir;

    private static void big(final ServerConfig c, final ServerConfig.FeedMode mode)
    {
        c.feedMode = mode;
        c.feedPort = 0;
        c.defaultCapacity = 1_000_000;
        c.defaultErrorRate = 0.000001;
    }

    /** @return n records of at most {@code distinct} values, seeded (FeedChainTest feeds them too). */
    static List<String> records(final int n, final int distinct, final long seed)
    {
        final Random random = new Random(seed);
        final List<String> records = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            records.add("rec-" + random.nextInt(distinct));
        }
        return records;
    }

    private static String expectedVerdicts(final List<String> records)
    {
        final Set<String> seen = new HashSet<>();
        final StringBuilder verdicts = new StringBuilder();
        for (final String r : records)
        {
            verdicts.append(seen.add(r) ? 'U' : 'D');
        }
        return verdicts.toString();
    }

    /**
     * Through the ring the raw feed judges into fixed-size filters only: a feed filter that BF.RESERVE made a scaling
     * chain (the daemon's default; inline the feed judges into it, FeedChainTest) closes the feed's connection with
     * the reason in the log, rather than leaving the client waiting for verdicts that never come.
     */
    @Test
    void aFeedThroughTheRingIntoAScalingFilterIsClosedWithItsReason() throws Exception
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            big(c, ServerConfig.FeedMode.RING);
            c.pastCapacity = ServerConfig.PastCapacity.SCALE;
            c.feedFilter = "grows";
        }))
        {
            try (RespClient client = server.client())
            {
                assertEquals("OK", client.call("BF.RESERVE", "grows", "0.01", "1000"));
            }
            try (Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
            {
                socket.setSoTimeout(20_000);
                final OutputStream out = socket.getOutputStream();
                out.write("a\nb\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertEquals(-1, socket.getInputStream().read(), "the connection is closed, no verdict sent");
            }
            assertTrue(server.log().contains("'grows' is a scaling filter"), server::log);
            assertTrue(server.log().contains("which the raw feed judges inline only"), server::log);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerConfig.FeedMode.class, names = {"INLINE", "RING"})
    void linesGetVerdictBytesInOrder(final ServerConfig.FeedMode mode) throws Exception
    {
        final List<String> records = records(50_000, 20_000, TestSeed.seed());
        try (TestServer server = new TestServer(dir, c -> big(c, mode));
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            final StringBuilder text = new StringBuilder();
            records.forEach(r -> text.append(r).append('\n'));
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(socket,
                text.toString().getBytes(StandardCharsets.UTF_8)));
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expectedVerdicts(records), new String(verdicts, StandardCharsets.US_ASCII));
            // the feed filter is a named filter like any other
            try (RespClient c = server.client())
            {
                assertEquals(0L, c.call("BF.ADD", "feed", records.get(0)));
            }
        }
    }

    /**
     * Inline, the feed's verdicts are the sequential algorithm's, byte for byte: the daemon's filter (its kind, its
     * parameters, its seed) rebuilt in memory and streamed the same records one at a time on this thread gives the
     * same bytes, false positives and forgotten records included. A filter small for the stream (capacity 10^4 at
     * 1 %, 60,000 records of 30,000 distinct values, seeded) makes its answers differ from an exact set's, which the
     * test checks first, so that the comparison sees what the grouped judging (touch, then stream) could change.
     */
    @Test
    void inlineVerdictsAreTheSequentialAlgorithms() throws Exception
    {
        final long seed = TestSeed.seed();
        final List<String> records = records(60_000, 30_000, seed);
        final byte[] verdicts;
        final io.ddf.engine.FilterParameters parameters;
        final ServerConfig[] config = new ServerConfig[1];
        try (TestServer server = new TestServer(dir, c ->
        {
            c.feedMode = ServerConfig.FeedMode.INLINE;
            c.feedPort = 0;
            c.defaultCapacity = 10_000;
            c.defaultErrorRate = 0.01;
            config[0] = c;
        });
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            final StringBuilder text = new StringBuilder();
            records.forEach(r -> text.append(r).append('\n'));
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(socket,
                text.toString().getBytes(StandardCharsets.UTF_8)));
            verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            try (io.ddf.ingest.store.FilterStore.Lease lease = server.server.store().acquire("feed"))
            {
                parameters = lease.filter().parameters();
            }
        }
        final StringBuilder sequential = new StringBuilder();
        try (io.ddf.engine.DuplicateFilter reference = config[0].defaultFilter().seed(parameters.seed()).create())
        {
            assertEquals(parameters, reference.parameters(), "the reference is the daemon's filter, in memory");
            for (final String r : records)
            {
                final byte[] bytes = r.getBytes(StandardCharsets.UTF_8);
                sequential.append(reference.stream(bytes, 0, bytes.length) == io.ddf.engine.Verdict.DUPLICATE ? 'D' :
                    'U');
            }
        }
        assertTrue(!sequential.toString().equals(expectedVerdicts(records)),
            "the filter is small enough for its answers to differ from an exact set's " + TestSeed.replayHint());
        assertEquals(records.size(), verdicts.length, "a verdict per record");
        final String inline = new String(verdicts, StandardCharsets.US_ASCII);
        int first = 0;
        while (first < records.size() && sequential.charAt(first) == inline.charAt(first))
        {
            first++;
        }
        final int differs = first;
        assertEquals(records.size(), differs, () -> "the first verdict that differs is record " + differs + " ('" +
            records.get(differs) + "'): " + inline.charAt(differs) + " inline, " + sequential.charAt(differs) +
            " sequential " + TestSeed.replayHint());
    }

    @ParameterizedTest
    @EnumSource(value = ServerConfig.FeedMode.class, names = {"INLINE", "RING"})
    void framesGetVerdictBytesInOrder(final ServerConfig.FeedMode mode) throws Exception
    {
        final List<String> records = records(20_000, 5_000, TestSeed.seed());
        try (TestServer server = new TestServer(dir, c ->
        {
            big(c, mode);
            c.feedFormat = ServerConfig.FeedFormat.FRAMES;
            c.feedFilter = "frames";
        });
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final DataOutputStream out = new DataOutputStream(bytes);
            for (final String r : records)
            {
                final byte[] b = (r + "\n\r\0").getBytes(StandardCharsets.UTF_8);
                out.writeInt(b.length);
                out.write(b);
            }
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(socket, bytes.toByteArray()));
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expectedVerdicts(records), new String(verdicts, StandardCharsets.US_ASCII));
        }
    }

    /**
     * The feed frames records itself and publishes them by their hashes, packed several to a ring slot: records of
     * every length up to the limit (the empty one too), {@code \r\n} or {@code \n}, cut across reads anywhere and
     * arriving in reads of any size (more records in one read than one batch holds) keep their verdicts and order:
     * those of an exact set. Then the filter the feed wrote answers RESP as the feed did.
     */
    @ParameterizedTest
    @EnumSource(value = ServerConfig.FeedMode.class, names = {"INLINE", "RING"})
    void recordsCutAnywhereKeepTheirVerdictsAndOrderThroughPackedSlots(final ServerConfig.FeedMode mode) throws Exception
    {
        final long seed = TestSeed.seed();
        final java.util.Random random = new java.util.Random(seed);
        final int max = 300;
        final List<String> records = new ArrayList<>();
        for (int i = 0; i < 60_000; i++)
        {
            if (i >= 20_000 && i < 40_000)
            {
                // tiny records: a 64 KiB read holds more of them than one batch of hashes
                records.add(Integer.toString(random.nextInt(100)));
                continue;
            }
            final int n = random.nextInt(12_000);
            // a few lengths at the edges: empty, and the longest allowed
            records.add(n % 997 == 0 ? "" : n % 991 == 0 ? "m".repeat(max - 8) + String.format("%08d", n) :
                "r" + n + "-" + "p".repeat(n % 40));
        }
        final ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (final String r : records)
        {
            wire.writeBytes(r.getBytes(StandardCharsets.US_ASCII));
            wire.writeBytes(random.nextBoolean() ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
        }
        final byte[] bytes = wire.toByteArray();
        try (TestServer server = new TestServer(dir, c ->
        {
            big(c, mode);
            c.maxItemBytes = max;
        });
             Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            socket.setTcpNoDelay(true);
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
            {
                int from = 0;
                while (from < bytes.length)
                {
                    // pieces of 1 byte to 64 KiB, each its own write
                    final int n = Math.min(bytes.length - from, 1 + random.nextInt(random.nextBoolean() ? 16 : 65_536));
                    write(socket, java.util.Arrays.copyOfRange(bytes, from, from + n));
                    from += n;
                }
            });
            final byte[] verdicts = new DataInputStream(socket.getInputStream()).readNBytes(records.size());
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(expectedVerdicts(records), new String(verdicts, StandardCharsets.US_ASCII),
                TestSeed.replayHint());
            try (RespClient c = server.client())
            {
                final List<String> sample = new ArrayList<>(List.of("BF.MEXISTS", "feed"));
                sample.addAll(records.subList(0, 500));
                for (final Object present : (List<?>)c.call(sample.toArray(String[]::new)))
                {
                    assertEquals(1L, present, "a record the feed judged is in the filter it wrote");
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ServerConfig.FeedMode.class, names = {"INLINE", "RING"})
    void forwardSendsOnlyUnseenRecords(final ServerConfig.FeedMode mode) throws Exception
    {
        final List<String> records = records(30_000, 10_000, TestSeed.seed());
        try (ServerSocket downstream = new ServerSocket())
        {
            downstream.bind(new InetSocketAddress("127.0.0.1", 0));
            final CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return downstream.accept();
                }
                catch (final IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (TestServer server = new TestServer(dir, c ->
            {
                big(c, mode);
                c.forward = new InetSocketAddress("127.0.0.1", downstream.getLocalPort());
            });
                 Socket received = accepted.get(30, TimeUnit.SECONDS);
                 Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
            {
                final StringBuilder text = new StringBuilder();
                records.forEach(r -> text.append(r).append('\n'));
                final List<String> unseen = new ArrayList<>();
                final Set<String> seen = new HashSet<>();
                final StringBuilder expected = new StringBuilder();
                for (final String r : records)
                {
                    if (seen.add(r))
                    {
                        unseen.add(r);
                        expected.append(r).append('\n');
                    }
                }
                // read slowly at first: the feed must pause rather than buffer without bound
                write(socket, text.toString().getBytes(StandardCharsets.UTF_8));
                final InputStream in = received.getInputStream();
                final byte[] got = in.readNBytes(expected.length());
                assertEquals(expected.toString(), new String(got, StandardCharsets.UTF_8));
                received.setSoTimeout(500);
                try
                {
                    final int extra = in.read();
                    assertTrue(extra < 0, "more than the unseen records");
                }
                catch (final java.net.SocketTimeoutException e)
                {
                    // nothing more: good
                }
                assertEquals(unseen.size(), seen.size());
            }
        }
    }

    private static void write(final Socket socket, final byte[] bytes)
    {
        try
        {
            final OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        }
        catch (final IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
