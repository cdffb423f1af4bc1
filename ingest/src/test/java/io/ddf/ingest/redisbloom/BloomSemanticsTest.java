package io.ddf.ingest.redisbloom;

import io.ddf.ingest.store.ScalingRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.ddf.ingest.redisbloom.SemanticsHarness.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * BF.* as RedisBloom 2.4.23 answers them, on the semantics alone (no daemon, no RESP): the replies and the exact
 * error texts redis-server with redisbloom-2.4.23.so gives to the same commands, in both layouts. The port of
 * RedisBloom's own flow tests (RedisBloomFlowIT) checks the rest through a real client.
 */
class BloomSemanticsTest
{
    @TempDir
    Path dir;

    @Test
    void reserveRefusesWithRedisBloomsWords()
    {
        for (final ScalingRegistry.Layout layout : ScalingRegistry.Layout.values())
        {
            try (SemanticsHarness h = new SemanticsHarness(dir.resolve(layout.name())))
            {
                final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, layout);
                assertEquals("ERR bad error rate", text(h.run(bf::reserve, "BF.RESERVE", "e", "x", "10")));
                assertEquals("ERR (0 < error rate range < 1) ", text(h.run(bf::reserve, "BF.RESERVE", "e", "1.5",
                    "10")));
                assertEquals("ERR bad capacity", text(h.run(bf::reserve, "BF.RESERVE", "e", "0.1", "ten")));
                assertEquals("ERR (capacity should be larger than 0)", text(h.run(bf::reserve, "BF.RESERVE", "e",
                    "0.1", "0")));
                assertEquals("ERR no expansion", text(h.run(bf::reserve, "BF.RESERVE", "e", "0.01", "100",
                    "EXPANSION")));
                assertEquals("Nonscaling filters cannot expand", text(h.run(bf::reserve, "BF.RESERVE", "e", "0.01",
                    "100", "NONSCALING", "EXPANSION", "2")));
                assertEquals("ERR bad expansion", text(h.run(bf::reserve, "BF.RESERVE", "e", "0.01", "100",
                    "EXPANSION", "abc")));
                assertEquals(Reply.OK, h.run(bf::reserve, "BF.RESERVE", "e", "0.01", "100"));
                assertEquals("ERR item exists", text(h.run(bf::reserve, "BF.RESERVE", "e", "0.01", "100")));
            }
        }
    }

    @Test
    void addMakesAMissingFilterAndAnswersWhetherTheItemIsNew()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            assertEquals(new Reply.Int(1), h.run(bf::add, "BF.ADD", "b1", "a"));
            assertEquals(new Reply.Int(0), h.run(bf::add, "BF.ADD", "b1", "a"));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(0), new Reply.Int(1))),
                h.run(bf::add, "BF.MADD", "b1", "a", "b"));
            assertEquals(new Reply.Int(1), h.run(bf::exists, "BF.EXISTS", "b1", "b"));
            assertEquals(new Reply.Int(0), h.run(bf::exists, "BF.EXISTS", "nosuch", "b"));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(100))), h.run(bf::info, "BF.INFO", "b1", "CAPACITY"));
            assertEquals(new Reply.Int(2), h.run(bf::card, "BF.CARD", "b1"));
        }
    }

    @Test
    void insertTakesItsOptionsOrRefusesAMissingKeyUnderNocreate()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            assertEquals("ERR not found", text(h.run(bf::insert, "BF.INSERT", "nob", "NOCREATE", "ITEMS", "a")));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(1), new Reply.Int(1), new Reply.Int(0))),
                h.run(bf::insert, "BF.INSERT", "b2", "CAPACITY", "5000", "ERROR", "0.001", "ITEMS", "a", "b", "a"));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(5000))), h.run(bf::info, "BF.INFO", "b2",
                "CAPACITY"));
        }
    }
}
