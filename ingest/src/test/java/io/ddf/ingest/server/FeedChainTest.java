package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The raw feed into a scaling Bloom chain (issue 31 item 11): what {@code BF.RESERVE} makes under serve's default
 * {@code --past-capacity scale}, NONSCALING or not. The verdicts are BF.ADD's (U for its 1, D for its 0), exact
 * against a set at error rates that leave no false positive in these streams (10^-7 and tighter); the chain's
 * BF.INFO and BF.EXISTS agree with what was fed, and records added over RESP are duplicates to the feed (the same
 * hash both ways). {@code --feed-mode inline} is explicit: it is what {@code auto} picks on 2 cores, and the ring
 * judges fixed-size filters only (FeedTest checks that refusal).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FeedChainTest
{
    @TempDir
    Path dir;

    private TestServer server()
    {
        return new TestServer(dir, c ->
        {
            c.feedMode = ServerConfig.FeedMode.INLINE;
            c.feedPort = 0;
            c.feedFilter = "feed";
        });
    }

    /** @return the verdicts of an exact set fed the records after {@code known}, up to {@code limit} unseen ones. */
    private static String expected(final List<String> records, final Set<String> known, final long limit)
    {
        final Set<String> seen = new HashSet<>(known);
        final StringBuilder verdicts = new StringBuilder();
        long added = 0;
        for (final String r : records)
        {
            if (!seen.contains(r) && added == limit)
            {
                break; // the chain is full: this add is refused, and the feed ends
            }
            final boolean unseen = seen.add(r);
            added += unseen ? 1 : 0;
            verdicts.append(unseen ? 'U' : 'D');
        }
        return verdicts.toString();
    }

    /** Feeds the records as lines on one connection: the verdicts until the connection ends (or all of them). */
    private static String feed(final TestServer server, final List<String> records) throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", server.server.feedPort()))
        {
            socket.setSoTimeout(30_000);
            return new String(DaemonFeedKillIT.judge(socket, records), StandardCharsets.US_ASCII);
        }
    }

    private static void reserve(final TestServer server, final String... command) throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call(command));
        }
    }

    private static void assertChainHolds(final RespClient c, final Set<String> fed, final String absentPrefix)
        throws IOException
    {
        assertEquals(List.of((long)fed.size()), c.call("BF.INFO", "feed", "ITEMS"));
        for (final String r : fed)
        {
            assertEquals(1L, c.call("BF.EXISTS", "feed", r), r);
        }
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(0L, c.call("BF.EXISTS", "feed", absentPrefix + i));
        }
    }

    /**
     * In either layout of a chain: ddf's blocked layers ({@code KIND scaling}, the default) and RedisBloom's own bit
     * arrays ({@code KIND redisbloom}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"scaling", "redisbloom"})
    void recordsIntoANonScalingChainGetBfAddsVerdicts(final String kind) throws Exception
    {
        final long seed = TestSeed.seed();
        final List<String> records = FeedTest.records(50_000, 20_000, seed);
        try (TestServer server = server())
        {
            final Set<String> viaResp = new HashSet<>();
            try (RespClient c = server.client())
            {
                assertEquals("OK", c.call("BF.RESERVE", "feed", "0.0000001", "100000", "NONSCALING", "KIND", kind));
                // some of the records added over RESP first: the feed must find them (the same hash as BF.ADD's)
                for (int i = 0; i < 500; i++)
                {
                    final String r = records.get(i);
                    assertEquals(viaResp.add(r) ? 1L : 0L, c.call("BF.ADD", "feed", r), r);
                }
            }
            assertEquals(expected(records, viaResp, Long.MAX_VALUE), feed(server, records),
                TestSeed.replayHint());
            try (RespClient c = server.client())
            {
                assertChainHolds(c, new HashSet<>(records), "absent-");
                assertEquals(List.of(1L), c.call("BF.INFO", "feed", "FILTERS"));
                final Object info = c.call("BF.INFO", "feed", "DDF");
                assertTrue(String.valueOf(info).startsWith("[layout, " + ("scaling".equals(kind) ? "ddf" : kind) + ","), String.valueOf(info));
            }
        }
    }

    @Test
    void aDefaultScalingChainGrowsUnderTheFeed() throws Exception
    {
        final long seed = TestSeed.seed();
        final List<String> records = FeedTest.records(40_000, 12_000, seed);
        try (TestServer server = server())
        {
            // 1,000 items a layer at first, expansion 2: the feed grows it to 4 layers at least
            reserve(server, "BF.RESERVE", "feed", "0.00000001", "1000");
            assertEquals(expected(records, Set.of(), Long.MAX_VALUE), feed(server, records),
                TestSeed.replayHint());
            try (RespClient c = server.client())
            {
                assertChainHolds(c, new HashSet<>(records), "absent-");
                final long layers = (Long)((List<?>)c.call("BF.INFO", "feed", "FILTERS")).get(0);
                assertTrue(layers >= 4, "layers: " + layers);
                // and the feed's records are duplicates to BF.ADD
                assertEquals(0L, c.call("BF.ADD", "feed", records.get(records.size() - 1)));
            }
        }
    }

    /**
     * A full NONSCALING chain refuses an add (RedisBloom's {@code ERR non scaling filter is full}); the feed has no
     * error byte: the verdicts before that record arrive, then the connection closes, the reason in the log. Under
     * {@code --fsync always} (the suite's {@code -Dddf.test.fsync}) those verdicts wait for their sync, then leave.
     */
    @Test
    void aFullNonScalingChainEndsTheFeedAfterTheVerdictsBeforeIt() throws Exception
    {
        final long seed = TestSeed.seed();
        final List<String> records = FeedTest.records(3_000, 600, seed);
        try (TestServer server = server())
        {
            reserve(server, "BF.RESERVE", "feed", "0.0000001", "250", "NONSCALING");
            final String expected = expected(records, Set.of(), 250);
            assertTrue(expected.length() < records.size(), "the stream fills the chain");
            assertEquals(expected, feed(server, records), TestSeed.replayHint());
            assertTrue(server.log().contains("filter 'feed' is full (a NONSCALING filter: ERR non scaling filter " +
                "is full); closing the connection after the verdicts before it"), server::log);
            try (RespClient c = server.client())
            {
                assertEquals(List.of(250L), c.call("BF.INFO", "feed", "ITEMS"));
                assertEquals(0L, c.call("BF.EXISTS", "feed", records.get(expected.length())));
            }
            // a new connection: it gets the verdicts of what the full chain holds, then ends likewise
            final List<String> again = records.subList(0, expected.length() + 1);
            assertEquals("D".repeat(expected.length()), feed(server, again));
        }
    }

    /** A cuckoo filter under the feed's name is no Bloom filter: the connection closes, the reason in the log. */
    @Test
    void aFeedIntoACuckooFilterIsClosedWithItsReason() throws Exception
    {
        try (TestServer server = server())
        {
            reserve(server, "CF.RESERVE", "feed", "1000");
            assertEquals("", feed(server, List.of("a", "b")));
            assertTrue(server.log().contains("filter 'feed' is a cuckoo filter; the raw feed judges into Bloom " +
                "filters; closing the connection"), server::log);
        }
    }
}
