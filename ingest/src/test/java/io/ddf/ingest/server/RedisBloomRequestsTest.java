package io.ddf.ingest.server;

import io.ddf.ingest.commands.redisbloom.FixedSizeReserve;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.persistence.testing.RedisBloomProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BF.RESERVE, BF.INSERT, CF.RESERVE and CF.INSERT are parsed once for every layout ({@code io.ddf.ingest.redisbloom}'s
 * requests): each malformed command below gets RedisBloom 2.4.23's exact reply from the daemon in its default layout
 * (ddf's chain), in RedisBloom's layout ({@code --scaling-layout redisbloom}) and on ddf's fixed-size filters
 * ({@code --past-capacity forget}); where redis-server and redisbloom-2.4.23.so are installed, RedisBloom itself
 * gives the same replies to the same commands (which shows the table is RedisBloom's). Each well-formed one is
 * accepted everywhere, but for ddf's own refusals on fixed-size filters (they do not expand), listed apart.
 */
class RedisBloomRequestsTest
{
    private static final String ARITY = "-ERR wrong number of arguments for '%s' command";

    /** A command (its key is made unique per case) and RedisBloom's reply, or null for "not an error". */
    private record Case(String expected, String... words)
    {
    }

    private static final List<Case> REFUSED = List.of(
        new Case("-ERR bad error rate", "BF.RESERVE", "k", "x", "10"),
        new Case("-ERR bad error rate", "BF.RESERVE", "k", " 0.01", "100"),
        new Case("-ERR (0 < error rate range < 1) ", "BF.RESERVE", "k", "1.5", "10"),
        new Case("-ERR (0 < error rate range < 1) ", "BF.RESERVE", "k", "inf", "100"),
        new Case("-ERR bad capacity", "BF.RESERVE", "k", "0.1", "ten"),
        new Case("-ERR bad capacity", "BF.RESERVE", "k", "0.1", "1e3"),
        new Case("-ERR bad capacity", "BF.RESERVE", "k", "0.1", "+100"),
        new Case("-ERR (capacity should be larger than 0)", "BF.RESERVE", "k", "0.1", "0"),
        new Case("-ERR no expansion", "BF.RESERVE", "k", "0.01", "100", "EXPANSION"),
        new Case("-Nonscaling filters cannot expand", "BF.RESERVE", "k", "0.01", "100", "NONSCALING", "EXPANSION",
            "2"),
        new Case("-Nonscaling filters cannot expand", "BF.RESERVE", "k", "0.01", "100", "EXPANSION", "NONSCALING"),
        new Case("-Nonscaling filters cannot expand", "BF.RESERVE", "k", "0.01", "100", "NONSCALING", "EXPANSION",
            "0"),
        new Case("-ERR bad expansion", "BF.RESERVE", "k", "0.01", "100", "EXPANSION", "abc"),
        new Case(ARITY.formatted("bf.reserve"), "BF.RESERVE", "k", "0.01", "100", "NONSCALING", "FOO", "BAR",
            "BAZ"),
        new Case(ARITY.formatted("bf.reserve"), "BF.RESERVE", "k", "0.01"),
        new Case("-Bad argument received", "BF.INSERT", "k", "CAPACITY", "0", "ITEMS", "a"),
        new Case("-Bad argument received", "BF.INSERT", "k", "CAPACITY", "-1", "ITEMS", "a"),
        new Case("-Bad argument received", "BF.INSERT", "k", "ERROR", "2", "ITEMS", "a"),
        new Case("-Bad argument received", "BF.INSERT", "k", "EXPANSION", "0", "ITEMS", "a"),
        new Case("-Bad error rate", "BF.INSERT", "k", "ERROR", "x", "ITEMS", "a"),
        new Case("-Bad expansion", "BF.INSERT", "k", "EXPANSION", "x", "ITEMS", "a"),
        new Case("-Bad capacity", "BF.INSERT", "k", "CAPACITY", "x", "ITEMS", "a"),
        new Case("-ERR not found", "BF.INSERT", "k", "NOC", "ITEMS", "a"),
        new Case("-ERR not found", "BF.INSERT", "k", "nocreate", "ITEMS", "a"),
        new Case("-Unknown argument received", "BF.INSERT", "k", "KIND", "x", "ITEMS", "a"),
        new Case("-Unknown argument received", "BF.INSERT", "k", "", "ITEMS", "a"),
        new Case(ARITY.formatted("bf.insert"), "BF.INSERT", "k", "CAPACITY", "10", "ITEMS"),
        new Case(ARITY.formatted("bf.insert"), "BF.INSERT", "k", "NONSCALING", "CAPACITY"),
        new Case("-BUCKETSIZE: value must be an integer between 1 and 255, inclusive.", "CF.RESERVE", "k", "100",
            "BUCKETSIZE", "0"),
        new Case("-BUCKETSIZE: value must be an integer between 1 and 255, inclusive.", "CF.RESERVE", "k", "1000",
            "BUCKETSIZE", "300"),
        new Case("-MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.", "CF.RESERVE", "k",
            "100", "MAXITERATIONS", "0"),
        new Case("-EXPANSION: value must be an integer between 0 and 32768, inclusive.", "CF.RESERVE", "k", "100",
            "EXPANSION", "40000"),
        new Case("-Couldn't parse EXPANSION", "CF.RESERVE", "k", "100", "EXPANSION", "x"),
        new Case("-Couldn't parse MAXITERATIONS", "CF.RESERVE", "k", "100", "BUCKETSIZE", "x", "MAXITERATIONS", "y"),
        new Case("-Capacity must be at least (BucketSize * 2)", "CF.RESERVE", "k", "1"),
        new Case("-Capacity must be at least (BucketSize * 2)", "CF.RESERVE", "k", "-5"),
        new Case("-Bad capacity", "CF.RESERVE", "k", "x"),
        new Case(ARITY.formatted("cf.reserve"), "CF.RESERVE", "k", "100", "BUCKETSIZE"),
        new Case("-Capacity must be at least (BucketSize * 2)", "CF.INSERT", "k", "CAPACITY", "3", "ITEMS", "a"),
        new Case("-Bad capacity", "CF.INSERT", "k", "CAPACITY", "x", "ITEMS", "a"),
        new Case("-ERR not found", "CF.INSERT", "k", "NOPE", "ITEMS", "a"),
        new Case("-ERR not found", "CF.INSERTNX", "k", "nocreate", "capacity", "5", "items", "a"),
        new Case("-Unknown argument received", "CF.INSERT", "k", "XYZ", "ITEMS", "a"),
        new Case("-Unknown argument received", "CF.INSERT", "k", "a", "b", "c"),
        new Case(ARITY.formatted("cf.insert"), "CF.INSERT", "k", "CAPACITY", "100", "ITEMS"),
        new Case(ARITY.formatted("cf.insertnx"), "CF.INSERTNX", "k", "NOCREATE", "CAPACITY"));

    /** Accepted by RedisBloom: unknown words ignored, options read by their first letters. */
    private static final List<Case> ACCEPTED = List.of(
        new Case(null, "BF.RESERVE", "k", "0.01", "100", "FOO"),
        new Case(null, "BF.RESERVE", "k", "1e-3", "1000", "nonscaling"),
        new Case(null, "BF.INSERT", "k", "NX", "ITEMS", "a"),
        new Case(null, "BF.INSERT", "k", "CAP", "1000", "ERR", "0.1", "NONSCALING", "I", "a", "b"),
        new Case(null, "CF.RESERVE", "k", "100", "FOO", "1"),
        new Case(null, "CF.RESERVE", "k", "100", "maxiterations", "5", "BUCKETSIZE", "4"),
        new Case(null, "CF.INSERT", "k", "CAP", "1000", "ITEMS", "a"),
        new Case(null, "CF.INSERTNX", "k", "c", "100", "i", "a", "b"));

    /** Accepted by RedisBloom and by ddf's chains, refused by ddf's fixed-size filters: they do not grow. */
    private static final List<Case> GROWING = List.of(
        new Case("-" + FixedSizeReserve.NO_EXPANSION, "BF.RESERVE", "k", "0.01", "100", "expansion", "3"),
        new Case("-" + FixedSizeReserve.NO_EXPANSION, "BF.INSERT", "k", "ECHO", "3", "ITEMS", "a"),
        new Case("-" + FixedSizeReserve.NO_EXPANSION, "CF.RESERVE", "k", "100", "EXPANSION", "2"));

    @TempDir
    Path dir;

    @Test
    void theDefaultLayoutAnswersAsRedisBloom() throws Exception
    {
        check("ddf", c -> { }, true);
    }

    @Test
    void redisBloomsLayoutAnswersAsRedisBloom() throws Exception
    {
        check("redisbloom", c -> c.scalingLayout = ScalingRegistry.Layout.REDISBLOOM, true);
    }

    @Test
    void fixedSizeFiltersAnswerAsRedisBloomButDoNotGrow() throws Exception
    {
        check("forget", TestServer::forget, false);
    }

    @Test
    void redisBloomItselfGivesTheseReplies() throws Exception
    {
        try (RedisBloomProcess redis = RedisBloomProcess.startOrSkip(); RespClient c = new RespClient(redis.port()))
        {
            assertEquals(List.of(), mismatches(c, "redisbloom", true));
        }
    }

    private void check(final String layout, final Consumer<ServerConfig> configure, final boolean grows)
        throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve(layout), configure); RespClient c = daemon.client())
        {
            assertEquals(List.of(), mismatches(c, layout, grows));
        }
    }

    private static List<String> mismatches(final RespClient c, final String layout, final boolean grows)
        throws Exception
    {
        final List<String> wrong = new ArrayList<>();
        int n = 0;
        final List<Case> cases = new ArrayList<>(REFUSED);
        cases.addAll(ACCEPTED);
        cases.addAll(GROWING);
        for (final Case one : cases)
        {
            final String[] words = one.words().clone();
            words[1] = layout + "-" + n++;
            final Object reply = c.call(words);
            final String expected = GROWING.contains(one) && grows ? null : one.expected();
            final boolean error = reply instanceof String text && text.startsWith("-");
            if (expected == null ? error : !expected.equals(reply))
            {
                wrong.add(String.join(" ", one.words()) + ": " + reply + (expected == null ? " (not an error " +
                    "expected)" : " (expected " + expected + ")"));
            }
        }
        assertTrue(n > 50, "the table ran");
        return wrong;
    }
}
