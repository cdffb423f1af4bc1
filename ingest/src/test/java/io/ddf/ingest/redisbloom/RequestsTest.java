package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry.Layout;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.ddf.ingest.redisbloom.SemanticsHarness.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four parsed requests as typed values: what each takes from the words, ddf's own options of BF.RESERVE apart
 * from RedisBloom's, and where a BF.RESERVE's filter goes. RedisBloom's refusals of each, in every layout and against
 * RedisBloom itself: RedisBloomRequestsTest.
 */
class RequestsTest
{
    @Test
    void reserveTakesDdfsOptionsOutBeforeReadingRedisBloomsAsRedisBloomDoes()
    {
        final ReserveRequest r = ReserveRequest.parse(args("BF.RESERVE", "k", "0.001", "5000", "KIND", "fifo-bloom",
            "GENERATIONS", "4", "EXPANSION", "0", "SEED", "7", "KEYED"));
        assertEquals("k", r.key());
        assertEquals(0.001, r.errorRate());
        assertEquals(5000, r.capacity());
        assertEquals(0L, r.expansion());
        assertFalse(r.nonScaling());
        assertEquals(new ReserveOptions("fifo-bloom", 7L, true, List.of(Map.entry("generations", "4")), null, null),
            r.ddf());
        assertNull(r.scalingLayout(true, Layout.DDF), "a fixed-size KIND");
        // seven of RedisBloom's own words at most, however many of ddf's
        assertEquals(RespError.wrongArity("bf.reserve").getMessage(), assertThrows(RespError.class, () ->
            ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100", "NONSCALING", "A", "B", "C", "SEED",
                "1"))).getMessage());
        // the word after EXPANSION is its value, even one that names a ddf option
        assertEquals(Errors.BAD_EXPANSION, assertThrows(RespError.class, () -> ReserveRequest.parse(args(
            "BF.RESERVE", "k", "0.01", "100", "EXPANSION", "generations"))).getMessage());
    }

    @Test
    void reserveGoesWhereItsKindSaysElseWhereTheDaemonsDefaultSays()
    {
        final ReserveRequest plain = ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100"));
        assertEquals(Layout.REDISBLOOM, plain.scalingLayout(true, Layout.REDISBLOOM));
        assertNull(plain.scalingLayout(false, Layout.DDF), "--past-capacity forget");
        assertEquals(ReserveRequest.DEFAULT_EXPANSION, plain.chainExpansion());
        assertEquals(Layout.REDISBLOOM, ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100", "KIND",
            "RedisBloom")).scalingLayout(false, Layout.DDF));
        assertEquals(Layout.DDF, ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100", "kind", "scaling"))
            .scalingLayout(false, Layout.REDISBLOOM));
        assertNull(ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100", "SEED", "3"))
            .scalingLayout(true, Layout.DDF), "SEED is an option of a fixed-size kind");
        assertTrue(assertThrows(RespError.class, () -> ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100",
            "KIND", "scaling", "SEED", "3"))).getMessage().contains("fixed-size"));
        assertEquals("ERR syntax error: kind needs a value", assertThrows(RespError.class, () ->
            ReserveRequest.parse(args("BF.RESERVE", "k", "0.01", "100", "KIND"))).getMessage());
        // RedisBloom's checks come before ddf's own
        assertEquals(Errors.BAD_CAPACITY, assertThrows(RespError.class, () -> ReserveRequest.parse(args(
            "BF.RESERVE", "k", "0.01", "x", "KIND"))).getMessage());
    }

    @Test
    void insertReadsOptionsByTheirFirstLetters()
    {
        final InsertRequest r = InsertRequest.parse(args("BF.INSERT", "k", "cap", "50", "err", "0.1", "exp", "4",
            "NONSCALING", "NOCREATE", "ITEMS", "a", "b"));
        assertEquals(new InsertRequest("k", 50L, 0.1, 4L, true, true, 11), r);
        final InsertRequest bare = InsertRequest.parse(args("BF.INSERT", "k", "ITEMS", "a"));
        assertEquals(100, bare.capacityOr(100));
        assertEquals(0.01, bare.errorRateOr(0.01));
        assertEquals(ReserveRequest.DEFAULT_EXPANSION, bare.chainExpansion());
        assertEquals(3, bare.firstItem());
    }

    @Test
    void cuckooRequestsKeepRedisBloomsDefaults()
    {
        final CuckooReserveRequest r = CuckooReserveRequest.parse(args("CF.RESERVE", "k", "1000"));
        assertEquals(new CuckooReserveRequest("k", 1000, CuckooReserveRequest.DEFAULT_BUCKET_SIZE,
            CuckooReserveRequest.DEFAULT_MAX_ITERATIONS, null), r);
        assertEquals(CuckooReserveRequest.DEFAULT_EXPANSION, r.expansionOrDefault());
        assertEquals(0L, CuckooReserveRequest.parse(args("CF.RESERVE", "k", "1000", "EXPANSION", "0")).expansion());
        assertEquals(new CuckooInsertRequest("k", 500L, true, 6), CuckooInsertRequest.parse(args("CF.INSERTNX",
            "k", "NOCREATE", "CAPACITY", "500", "ITEMS", "a")));
    }
}
