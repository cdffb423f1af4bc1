package io.ddf.ingest.redisbloom;

import io.ddf.ingest.store.ScalingRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.ddf.ingest.redisbloom.SemanticsHarness.args;
import static io.ddf.ingest.redisbloom.SemanticsHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * BF.* as RedisBloom 2.4.23 answers them, on the semantics alone (no daemon, no connection): the replies and the
 * exact error texts redis-server with redisbloom-2.4.23.so gives to the same commands, in both layouts. The parsers'
 * refusals are checked in every layout and against RedisBloom itself by RedisBloomRequestsTest, the rest of
 * RedisBloom's own flow tests through a real client by RedisBloomFlowIT.
 */
class BloomSemanticsTest
{
    @TempDir
    Path dir;

    @Test
    void reserveMakesTheChainOnceInEitherLayout()
    {
        for (final ScalingRegistry.Layout layout : ScalingRegistry.Layout.values())
        {
            try (SemanticsHarness h = new SemanticsHarness(dir.resolve(layout.name())))
            {
                final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, layout);
                assertEquals("+OK\r\n", h.create(() -> bf.reserve(ReserveRequest.parse(args("BF.RESERVE", "e",
                    "0.01", "1000", "EXPANSION", "4")), layout)));
                assertEquals("-ERR item exists\r\n", h.create(() -> bf.reserve(ReserveRequest.parse(args(
                    "BF.RESERVE", "e", "0.01", "100")), layout)));
                assertEquals("*1\r\n:1000\r\n", run(bf::info, "BF.INFO", "e", "CAPACITY"));
                assertEquals("*1\r\n:4\r\n", run(bf::info, "BF.INFO", "e", "EXPANSION"));
                assertEquals("-Invalid information value\r\n", run(bf::info, "BF.INFO", "e", "NOPE"));
            }
        }
    }

    @Test
    void addMakesAMissingChainOfTheDefaultsOnce()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            assertEquals("+OK\r\n", h.create(() -> bf.toAdd("b1")));
            assertEquals(null, bf.toAdd("b1"));
            assertEquals("*1\r\n:100\r\n", run(bf::info, "BF.INFO", "b1", "CAPACITY"));
            assertEquals(":0\r\n", run(bf::card, "BF.CARD", "b1"));
            assertEquals(":0\r\n", run(bf::card, "BF.CARD", "nosuch"));
            assertEquals("-ERR not found\r\n", run(bf::debug, "BF.DEBUG", "nosuch"));
        }
    }

    @Test
    void insertTakesItsOptionsOrRefusesAMissingKeyUnderNocreate()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            final InsertRequest nocreate = InsertRequest.parse(args("BF.INSERT", "nob", "NOCREATE", "ITEMS", "a"));
            assertEquals("-ERR not found\r\n", h.create(() -> bf.toInsert(nocreate)));
            final String[] words = {"BF.INSERT", "b2", "CAPACITY", "5000", "ERROR", "0.001", "ITEMS", "a", "b", "a"};
            final InsertRequest insert = InsertRequest.parse(args(words));
            assertEquals("*3\r\n:1\r\n:1\r\n:0\r\n", h.createThen(() -> bf.toInsert(insert),
                () -> bf.insert(insert, SemanticsHarness.bytes(words))));
            assertEquals("*1\r\n:5000\r\n", run(bf::info, "BF.INFO", "b2", "CAPACITY"));
            assertEquals(":2\r\n", run(bf::card, "BF.CARD", "b2"));
        }
    }

    @Test
    void aFullNonscalingChainEndsTheArrayWithRedisBloomsError()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.REDISBLOOM);
            final String[] words = {"BF.INSERT", "full", "CAPACITY", "2", "ERROR", "0.001", "NONSCALING", "ITEMS", "a",
                "b", "c", "d"};
            final InsertRequest insert = InsertRequest.parse(args(words));
            assertEquals("*3\r\n:1\r\n:1\r\n-ERR non scaling filter is full\r\n", h.createThen(
                () -> bf.toInsert(insert), () -> bf.insert(insert, SemanticsHarness.bytes(words))));
        }
    }
}
