package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.ddf.ingest.redisbloom.SemanticsHarness.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * CF.* as RedisBloom 2.4.23 answers them, on the semantics alone: the replies and exact error texts redis-server
 * with redisbloom-2.4.23.so gives to the same commands (RedisBloomFlowIT checks the rest through a real client).
 */
class CuckooSemanticsTest
{
    @TempDir
    Path dir;

    @Test
    void reserveRefusesWithRedisBloomsWords()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals("Bad capacity", text(h.run(cf::reserve, "CF.RESERVE", "x", "abc")));
            assertEquals("Capacity must be at least (BucketSize * 2)", text(h.run(cf::reserve, "CF.RESERVE", "x",
                "0")));
            assertEquals("BUCKETSIZE: value must be an integer between 1 and 255, inclusive.",
                text(h.run(cf::reserve, "CF.RESERVE", "x", "10", "BUCKETSIZE", "0")));
            assertEquals("MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.",
                text(h.run(cf::reserve, "CF.RESERVE", "x", "10", "MAXITERATIONS", "0")));
            assertEquals("EXPANSION: value must be an integer between 0 and 32768, inclusive.",
                text(h.run(cf::reserve, "CF.RESERVE", "x", "10", "EXPANSION", "40000")));
            assertEquals(Reply.OK, h.run(cf::reserve, "CF.RESERVE", "x", "100"));
            assertEquals("ERR item exists", text(h.run(cf::reserve, "CF.RESERVE", "x", "100")));
        }
    }

    @Test
    void insertCountsCopiesAndInsertnxOnlyNewItems()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals("ERR not found", text(h.run(cf::insert, "CF.INSERT", "nokey", "NOCREATE", "ITEMS", "a")));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(1), new Reply.Int(1), new Reply.Int(1))),
                h.run(cf::insert, "CF.INSERT", "cfk", "CAPACITY", "1000", "ITEMS", "a", "b", "a"));
            assertEquals(new Reply.Int(2), h.run(cf::check, "CF.COUNT", "cfk", "a"));
            assertEquals(Reply.Array.of(List.of(new Reply.Int(0), new Reply.Int(1))),
                h.run(cf::insert, "CF.INSERTNX", "cfk", "ITEMS", "a", "c"));
        }
    }

    @Test
    void aKeyOfTheOtherFamilyIsWrongtype()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals(new Reply.Int(1), h.run(bf::add, "BF.ADD", "b1", "a"));
            assertEquals(RespError.WRONGTYPE, text(h.run(cf::add, "CF.ADD", "b1", "a")));
        }
    }
}
