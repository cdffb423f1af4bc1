package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.KindCodes;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The narrow rows' word-at-once search (SWAR) answers as the cell-by-cell loops it replaced: for every narrow
 * layout (k cells of b bits, k * b &lt;= 64, b from 1 to the definition's 32), rows drawn with many empty and many equal cells,
 * {@code find} is "some cell equals the value" and {@code place} fills the first empty cell, or the victim's.
 */
class NarrowRowSearchTest
{
    @Test
    void findAndPlaceAnswerAsTheCellLoops()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final MappedWords none = new MappedWords(0, 0); // the core is built over no table: only its row logic runs
        long checked = 0;
        for (int bits = 1; bits <= QuotientDefinition.MAX_CELL_BITS; bits++)
        {
            for (int buckets = 1; buckets * bits <= 64; buckets++)
            {
                final NarrowQuotientCore core = new NarrowQuotientCore(KindCodes.QHT,
                    new TableLayout(64, buckets, bits), CellFunction.qht(bits), none);
                final long mask = (1L << bits) - 1;
                for (int trial = 0; trial < 300; trial++)
                {
                    // values from a tiny range too, so that equal and empty cells are common
                    final long range = random.nextBoolean() ? 3 : mask;
                    long row = 0;
                    for (int i = 0; i < buckets; i++)
                    {
                        final long cell = range == 3 ? random.nextLong(4) & mask :
                            random.nextInt(3) == 0 ? 0 : random.nextLong() & mask;
                        row |= cell << (i * bits);
                    }
                    long value = (range == 3 ? random.nextLong(4) : random.nextLong()) & mask;
                    value = value == 0 ? 1 : value;
                    final long hash = random.nextLong();
                    assertEquals(loopFind(row, value, buckets, bits, mask), core.find(row, value),
                        "find, k=" + buckets + " b=" + bits + " row " + Long.toHexString(row) + " value " + value);
                    assertEquals(loopPlace(core, row, value, hash, buckets, bits, mask), core.place(row, value, hash),
                        "place, k=" + buckets + " b=" + bits + " row " + Long.toHexString(row) + " value " + value);
                    checked++;
                }
            }
        }
        assertEquals(300L * layouts(), checked);
    }

    private static long layouts()
    {
        long count = 0;
        for (int bits = 1; bits <= QuotientDefinition.MAX_CELL_BITS; bits++)
        {
            count += 64 / bits;
        }
        return count;
    }

    private static boolean loopFind(final long row, final long value, final int buckets, final int bits,
        final long mask)
    {
        for (int i = 0; i < buckets; i++)
        {
            if (((row >>> (i * bits)) & mask) == value)
            {
                return true;
            }
        }
        return false;
    }

    private static long loopPlace(final NarrowQuotientCore core, final long row, final long value, final long hash,
        final int buckets, final int bits, final long mask)
    {
        int slot = -1;
        for (int i = 0; i < buckets; i++)
        {
            if (((row >>> (i * bits)) & mask) == 0)
            {
                slot = i;
                break;
            }
        }
        if (slot < 0)
        {
            slot = core.victim(hash);
        }
        return (row & ~(mask << (slot * bits))) | (value << (slot * bits));
    }
}
