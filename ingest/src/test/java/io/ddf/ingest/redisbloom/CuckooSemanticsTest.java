package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.ddf.ingest.redisbloom.SemanticsHarness.args;
import static io.ddf.ingest.redisbloom.SemanticsHarness.bytes;
import static io.ddf.ingest.redisbloom.SemanticsHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * CF.* as RedisBloom 2.4.23 answers them, on the semantics alone: the replies and exact error texts redis-server
 * with redisbloom-2.4.23.so gives to the same commands (RedisBloomRequestsTest checks the parsers' refusals in every
 * layout, RedisBloomFlowIT the rest through a real client).
 */
class CuckooSemanticsTest
{
    @TempDir
    Path dir;

    @Test
    void reserveMakesTheFilterOnceWithItsOptions()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals("+OK\r\n", h.create(() -> cf.reserve(CuckooReserveRequest.parse(args("CF.RESERVE", "x",
                "100", "BUCKETSIZE", "4", "MAXITERATIONS", "50", "EXPANSION", "2")))));
            assertEquals("-ERR item exists\r\n", h.create(() -> cf.reserve(CuckooReserveRequest.parse(args(
                "CF.RESERVE", "x", "100")))));
            final String info = run(cf::info, "CF.INFO", "x");
            org.junit.jupiter.api.Assertions.assertTrue(info.contains("+Bucket size\r\n:4\r\n") && info.contains("+Expansion rate\r\n:2\r\n") &&
                info.contains("+Max iterations\r\n:50\r\n"), info);
        }
    }

    @Test
    void insertCountsCopiesAndInsertnxOnlyNewItems()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals("-ERR not found\r\n", h.create(() -> cf.toInsert("nokey", false, 1024)));
            final String[] insert = {"CF.INSERT", "cfk", "CAPACITY", "1000", "ITEMS", "a", "b", "a"};
            final CuckooInsertRequest request = CuckooInsertRequest.parse(args(insert));
            assertEquals("*3\r\n:1\r\n:1\r\n:1\r\n", h.createThen(() -> cf.toInsert("cfk", true,
                request.capacityOr(1024)), () -> cf.insert(request, bytes(insert), false)));
            assertEquals(":2\r\n", run(cf::check, "CF.COUNT", "cfk", "a"));
            final String[] nx = {"CF.INSERTNX", "cfk", "ITEMS", "a", "c"};
            assertEquals("*2\r\n:0\r\n:1\r\n", SemanticsHarness.run(b -> cf.insert(
                CuckooInsertRequest.parse(args(nx)), b, true), nx));
            assertEquals(":1\r\n", run(cf::delete, "CF.DEL", "cfk", "a"));
            assertEquals("-Not found\r\n", run(cf::delete, "CF.DEL", "nokey", "a"));
        }
    }

    @Test
    void aKeyOfTheOtherFamilyIsWrongtype()
    {
        try (SemanticsHarness h = new SemanticsHarness(dir))
        {
            final BloomSemantics bf = new BloomSemantics(h.registry, 100, 0.01, ScalingRegistry.Layout.DDF);
            final CuckooSemantics cf = new CuckooSemantics(h.registry);
            assertEquals("+OK\r\n", h.create(() -> bf.toAdd("b1")));
            assertEquals("-" + RespError.WRONGTYPE + "\r\n", h.create(() -> cf.toInsert("b1", true, 1024)));
            assertEquals(":0\r\n", run(cf::check, "CF.EXISTS", "b1", "a"));
            assertEquals("-" + RespError.WRONGTYPE + "\r\n", h.create(() -> cf.reserve(
                CuckooReserveRequest.parse(args("CF.RESERVE", "b1", "100")))));
        }
    }
}
