package io.ddf.ingest.server;

import io.ddf.ingest.commands.redisbloom.FixedSizeReserve;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12's capacity defects through the daemon, one test each (each failed before fifo-bloom became the default
 * and BF.RESERVE's options were given a meaning): the default filter forgetting 800 of 1,000 items, EXPANSION
 * ignored, NONSCALING EXPANSION accepted, KIND ignoring capacity and error rate; and BF.INFO's predictions.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SharedServerTestBase.Forgetting // about the capacity semantics of ddf's fixed-size filters
class CapacityCommandsTest extends SharedServerTestBase
{
    /** Adds items prefix0 … prefix(count − 1) with BF.MADD batches; returns how many were judged new. */
    private static long add(final RespClient c, final String key, final String prefix, final int count)
        throws IOException
    {
        long added = 0;
        for (int from = 0; from < count; from += 1000)
        {
            final List<String> args = new ArrayList<>(List.of("BF.MADD", key));
            for (int i = from; i < Math.min(count, from + 1000); i++)
            {
                args.add(prefix + i);
            }
            for (final Object reply : (List<?>)c.call(args.toArray(String[]::new)))
            {
                added += (Long)reply;
            }
        }
        return added;
    }

    /** How many of prefix0 … prefix(count − 1) BF.MEXISTS answers 1 for. */
    private static long present(final RespClient c, final String key, final String prefix, final int count)
        throws IOException
    {
        long present = 0;
        for (int from = 0; from < count; from += 1000)
        {
            final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", key));
            for (int i = from; i < Math.min(count, from + 1000); i++)
            {
                args.add(prefix + i);
            }
            for (final Object reply : (List<?>)c.call(args.toArray(String[]::new)))
            {
                present += (Long)reply;
            }
        }
        return present;
    }

    @Test
    void aKeyMadeByBfAddHoldsAMillionAndForgetsNothingOfTheFirstItems() throws IOException
    {
        try (RespClient c = server.client())
        {
            // before: capacity 100, and 800 of 1,000 items forgotten after 1,000 adds
            assertEquals(1L, c.call("BF.ADD", "auto", "first"));
            add(c, "auto", "a-", 1_000);
            assertEquals(1_000, present(c, "auto", "a-", 1_000));
            assertEquals(List.of(1_000_000L), c.call("BF.INFO", "auto", "CAPACITY"));
            add(c, "auto", "b-", 20_000);
            assertEquals(20_000, present(c, "auto", "b-", 20_000));
            assertEquals(1_000, present(c, "auto", "a-", 1_000));
            assertEquals(1L, c.call("BF.EXISTS", "auto", "first"));
        }
    }

    @Test
    void expansionIsRefusedNotIgnored() throws IOException
    {
        try (RespClient c = server.client())
        {
            // before: OK, and the filter never expanded
            assertEquals("-" + FixedSizeReserve.NO_EXPANSION, c.call("BF.RESERVE", "x1", "0.01", "100", "EXPANSION", "2"));
            assertEquals("-ERR bad expansion", c.call("BF.RESERVE", "x1", "0.01", "100", "EXPANSION", "two"));
            assertEquals("-" + FixedSizeReserve.NO_EXPANSION,
                c.call("BF.RESERVE", "x1", "0.01", "100", "EXPANSION", "40000"));
            assertEquals(0L, c.call("EXISTS", "x1"));
            // EXPANSION 0 is RedisBloom's spelling of NONSCALING
            assertEquals("OK", c.call("BF.RESERVE", "x1", "0.01", "100", "EXPANSION", "0"));
            assertNull(((List<?>)c.call("BF.INFO", "x1", "EXPANSION")).get(0));
        }
    }

    @Test
    void nonscalingWithExpansionIsRefusedAsRedisBloomDoes() throws IOException
    {
        try (RespClient c = server.client())
        {
            // before: OK
            assertEquals("-" + io.ddf.ingest.redisbloom.Errors.CANNOT_EXPAND,
                c.call("BF.RESERVE", "ns", "0.01", "100", "NONSCALING", "EXPANSION", "2"));
            assertEquals("-" + io.ddf.ingest.redisbloom.Errors.CANNOT_EXPAND,
                c.call("BF.RESERVE", "ns", "0.01", "100", "EXPANSION", "2", "NONSCALING"));
            assertEquals(0L, c.call("EXISTS", "ns"));
            assertEquals("OK", c.call("BF.RESERVE", "ns", "0.01", "100", "NONSCALING"));
        }
    }

    @Test
    void kindIsSizedByCapacityAndErrorRateOrRefused() throws IOException
    {
        try (RespClient c = server.client())
        {
            // before: a fixed 8 MiB table whatever the capacity
            assertEquals("OK", c.call("BF.RESERVE", "kb", "0.01", "1000", "KIND", "bloom"));
            final long bloomSize = (Long)((List<?>)c.call("BF.INFO", "kb", "SIZE")).get(0);
            assertTrue(bloomSize < 2_000, "bloom of capacity 1000 takes " + bloomSize + " bytes");
            assertEquals("OK", c.call("BF.RESERVE", "kb10", "0.01", "10000", "KIND", "bloom"));
            final long bloomSize10 = (Long)((List<?>)c.call("BF.INFO", "kb10", "SIZE")).get(0);
            assertTrue(bloomSize10 > 9 * bloomSize, bloomSize + " then " + bloomSize10);
            assertEquals("OK", c.call("BF.RESERVE", "kq", "0.01", "1000", "KIND", "qht"));
            // sized with a margin (CapacitySizing.QHT_MARGIN): the capacity its model promises is at least 1,000
            final long qhtCapacity = (Long)((List<?>)c.call("BF.INFO", "kq", "CAPACITY")).get(0);
            assertTrue(qhtCapacity >= 1000 && qhtCapacity <= 1100, "qht capacity " + qhtCapacity);
            assertTrue(((String)c.call("BF.RESERVE", "ks", "0.01", "1000", "KIND", "sbf"))
                .startsWith("-ERR capacity and error rate do not size KIND sbf"));
            // a shape given beside capacity and error rate is held to them: 64 rows cannot hold 1,000 items
            assertTrue(((String)c.call("BF.RESERVE", "kr", "0.01", "1000", "KIND", "qht", "rows", "64"))
                .startsWith("-ERR this qht forgets"));
            assertEquals(0L, c.call("EXISTS", "ks", "kr"));
            // 1,000 items into a bloom of capacity 1,000: none forgotten, few false positives
            add(c, "kb", "b-", 1000);
            assertEquals(1000, present(c, "kb", "b-", 1000));
            assertTrue(present(c, "kb", "never-", 10_000) < 200);
        }
    }

    @Test
    void bfInfoShowsFillAndPredictedRatesAtTheCurrentLoad() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "inf", "0.01", "1000"));
            final long added = add(c, "inf", "i-", 1000);
            final List<?> info = (List<?>)c.call("BF.INFO", "inf");
            assertEquals("Capacity", info.get(0));
            assertEquals(1000L, info.get(1));
            assertEquals("Number of filters", info.get(4));
            assertEquals(2L, info.get(5));
            assertEquals(added, info.get(7));
            final double fill = Double.parseDouble((String)info.get(info.indexOf("fill") + 1));
            final double fpr = Double.parseDouble((String)info.get(info.indexOf("predicted-fpr") + 1));
            final double fnr = Double.parseDouble((String)info.get(info.indexOf("predicted-fnr") + 1));
            assertEquals(added / 1000.0, fill, 1e-9, info.toString());
            assertTrue(fpr > 0.005 && fpr <= 0.01, info.toString());
            assertEquals(0.0, fnr, info.toString());
            assertEquals("fifo-bloom", info.get(info.indexOf("kind") + 1));
        }
    }
}
