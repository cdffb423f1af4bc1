package io.ddf.ingest.server;

import io.ddf.ingest.resp.RespError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 12's BF.SCANDUMP / BF.LOADCHUNK: a ddf → ddf migration that refuses foreign or corrupt chunks. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SharedServerTestBase.Forgetting // about the dumps of ddf's fixed-size filters
class ScanDumpTest extends SharedServerTestBase
{
    /** @return every [iterator, chunk] pair of a dump, in order, the final [0, ""] left out. */
    private static List<List<?>> dump(final RespClient c, final String key) throws IOException
    {
        return dump(c, "BF.SCANDUMP", key);
    }

    /** @return every [iterator, chunk] pair of a dump by BF.SCANDUMP or CF.SCANDUMP, the final [0, ""] left out. */
    private static List<List<?>> dump(final RespClient c, final String command, final String key)
        throws IOException
    {
        final List<List<?>> chunks = new ArrayList<>();
        long iterator = 0;
        while (true)
        {
            final List<?> reply = (List<?>)c.call(command, key, Long.toString(iterator));
            iterator = (Long)reply.get(0);
            if (iterator == 0)
            {
                assertEquals("", reply.get(1));
                return chunks;
            }
            chunks.add(reply);
        }
    }

    private static List<String> items(final String command, final String key, final int n)
    {
        final List<String> args = new ArrayList<>(List.of(command, key));
        for (int i = 0; i < n; i++)
        {
            args.add("item-" + i);
        }
        return args;
    }

    @Test
    void aDumpLoadedUnderAnotherKeyAnswersAsTheOriginal() throws IOException
    {
        try (RespClient c = server.client().binary())
        {
            assertEquals("OK", c.call("BF.RESERVE", "src", "0.01", "100000"));
            c.call(items("BF.MADD", "src", 2_000).toArray(String[]::new));
            final List<List<?>> chunks = dump(c, "src");
            assertTrue(chunks.size() >= 2, "a header chunk and table chunks: " + chunks.size());
            for (final List<?> chunk : chunks)
            {
                assertEquals("OK", c.call("BF.LOADCHUNK", "dst", String.valueOf(chunk.get(0)), (String)chunk.get(1)));
            }
            assertEquals(c.call("BF.CARD", "src"), c.call("BF.CARD", "dst"));
            assertEquals(c.call(items("BF.MEXISTS", "src", 3_000).toArray(String[]::new)),
                c.call(items("BF.MEXISTS", "dst", 3_000).toArray(String[]::new)));
            assertEquals(0L, c.call("BF.ADD", "dst", "item-7"));
            assertEquals(1L, c.call("BF.ADD", "dst", "new-item"));
            assertEquals("-ERR item exists",
                c.call("BF.LOADCHUNK", "dst", "1", (String)chunks.get(0).get(1)), "nothing overwritten");

            // a cuckoo filter is dumped and loaded by the CF.* pair, as in RedisBloom; the BF.* pair refuses it
            assertEquals("OK", c.call("CF.RESERVE", "cf-src", "1000"));
            assertEquals(List.of(1L, 1L), c.call("CF.INSERT", "cf-src", "ITEMS", "a", "a"));
            final List<List<?>> cuckoo = dump(c, "CF.SCANDUMP", "cf-src");
            assertEquals("-" + RespError.WRONGTYPE, c.call("BF.SCANDUMP", "cf-src", "0"));
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "cf-wrong", "1", (String)cuckoo.get(0).get(1)))
                .startsWith("-ERR the dump is of a cuckoo filter: load it with CF.LOADCHUNK"));
            assertEquals(0L, c.call("EXISTS", "cf-wrong"), "the refused header chunk left no filter behind");
            assertTrue(String.valueOf(c.call("CF.LOADCHUNK", "bf-wrong", "1", (String)chunks.get(0).get(1)))
                .startsWith("-ERR the dump is of a Bloom-family filter: load it with BF.LOADCHUNK"));
            assertEquals(0L, c.call("EXISTS", "bf-wrong"));
            for (final List<?> chunk : cuckoo)
            {
                assertEquals("OK", c.call("CF.LOADCHUNK", "cf-dst", String.valueOf(chunk.get(0)),
                    (String)chunk.get(1)));
            }
            assertEquals(2L, c.call("CF.COUNT", "cf-dst", "a"));
            assertEquals("MBbloomCF", c.call("TYPE", "cf-dst"));
        }
    }

    @Test
    void foreignCorruptOrMisplacedChunksAreRefusedAndChangeNothing() throws IOException
    {
        try (RespClient c = server.client().binary())
        {
            assertEquals("OK", c.call("BF.RESERVE", "s2", "0.01", "1000"));
            c.call(items("BF.MADD", "s2", 100).toArray(String[]::new));
            final List<List<?>> chunks = dump(c, "s2");
            final String header = (String)chunks.get(0).get(1);
            final String table = (String)chunks.get(1).get(1);
            // a chunk without ddf's magic is taken for RedisBloom's, and this one is not a valid RedisBloom header
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "d2", "1", "\u0000\u0010\u0000\u0000abcdefgh"))
                .startsWith("-ERR received bad data"));
            assertEquals(0L, c.call("EXISTS", "d2"));
            final char[] bad = header.toCharArray();
            bad[12] ^= 1;
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "d2", "1", new String(bad)))
                .startsWith("-ERR corrupt dump chunk"));
            assertEquals(0L, c.call("EXISTS", "d2"));
            assertEquals("OK", c.call("BF.LOADCHUNK", "d2", "1", header));
            final Object before = c.call(items("BF.MEXISTS", "d2", 100).toArray(String[]::new));
            final char[] badTable = table.toCharArray();
            badTable[100] ^= 0x40;
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "d2", "2", new String(badTable)))
                .startsWith("-ERR corrupt dump chunk"));
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "d2", "3", table)).startsWith("-ERR dump chunk out of"));
            assertEquals(before, c.call(items("BF.MEXISTS", "d2", 100).toArray(String[]::new)), "nothing written");
            assertEquals("OK", c.call("BF.RESERVE", "other", "0.01", "1000", "SEED", "7"));
            final String otherTable = (String)dump(c, "other").get(1).get(1);
            assertTrue(String.valueOf(c.call("BF.LOADCHUNK", "d2", "2", otherTable))
                .startsWith("-ERR dump chunk of another filter"));
            assertEquals("OK", c.call("BF.LOADCHUNK", "d2", "2", table));
            assertEquals(List.of(1L, 1L), c.call("BF.MEXISTS", "d2", "item-0", "item-99"));
            assertEquals("-ERR not found", c.call("BF.SCANDUMP", "missing", "0"));
        }
    }
}
