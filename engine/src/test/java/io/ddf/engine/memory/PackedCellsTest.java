package io.ddf.engine.memory;

import io.ddf.engine.DirectRegion;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PackedCellsTest
{
    private static final long SEED = Long.getLong("ddf.test.seed", 0x5EEDL);

    @Test
    void narrowRowsShareAWordWithoutStraddling()
    {
        final PackedCells p = new PackedCells(10, 2, 12, 1); // 24-bit rows: 2 to a word
        assertFalse(p.wide());
        assertEquals(2, p.rowsPerWord());
        assertEquals(4, p.cellsPerWord());
        assertEquals(1, p.wordsPerRow());
        assertEquals(5, p.words());
        assertEquals(2, p.wordOf(5));
        assertEquals(24, p.shiftOf(5));
        assertEquals(20, p.cells());
    }

    @Test
    void wideRowsTakeWholeWordsLeavingTheReservedBits()
    {
        final PackedCells locked = new PackedCells(10, 8, 21, 1); // 63 / 21 = 3 cells a word, bit 63 spare
        assertTrue(locked.wide());
        assertEquals(0, locked.rowsPerWord());
        assertEquals(3, locked.cellsPerWord());
        assertEquals(3, locked.wordsPerRow());
        assertEquals(30, locked.words());
        final PackedCells unlocked = new PackedCells(10, 8, 16, 0); // 64 / 16 = 4 cells a word
        assertEquals(4, unlocked.cellsPerWord());
        assertEquals(2, unlocked.wordsPerRow());
        assertEquals(20, unlocked.words());
    }

    @Test
    void singleCellsFillTheGivenMemory()
    {
        final PackedCells p = PackedCells.ofMemory(1000, 3); // 15 words of 21 cells
        assertEquals(15, p.words());
        assertEquals(21, p.cellsPerWord());
        assertEquals(315, p.cells());
        assertEquals(1, p.wordOf(21));
        assertEquals(6, p.shiftOf(23));
        assertEquals(7, p.cellMask());
        assertEquals(-1L, PackedCells.ofMemory(128, 64).cellMask());
    }

    @Test
    void withReplacesOneCellAndGetReadsIt()
    {
        final long mask = PackedCells.mask(5);
        assertEquals(31, mask);
        assertEquals(-1L, PackedCells.mask(64));
        assertEquals(0, PackedCells.mask(0));
        final long word = 0xFFFF_FFFF_FFFF_FFFFL;
        final long changed = PackedCells.with(word, 10, mask, 0b10101);
        assertEquals(0b10101, PackedCells.get(changed, 10, mask));
        assertEquals(word & ~(mask << 10), changed & ~(mask << 10), "no other bit changes");
    }

    @Test
    void fieldsMayStraddleTwoWords()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final int width = 13;
        final int fields = 100; // 1300 bits over 21 words, many fields straddling
        final long[] model = new long[fields];
        try (DirectRegion r = new DirectRegion(256))
        {
            final MappedWords words = r.words();
            for (int round = 0; round < 5_000; round++)
            {
                final int f = random.nextInt(fields);
                final long value = random.nextLong() & PackedCells.mask(width);
                PackedCells.setFieldPlain(words, (long)f * width, width, value);
                model[f] = value;
            }
            for (int f = 0; f < fields; f++)
            {
                final long read = PackedCells.getFieldPlain(words, (long)f * width, width);
                assertEquals(model[f], read, "field " + f + "; seed " + SEED);
            }
        }
    }
}
