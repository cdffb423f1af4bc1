package io.ddf.persistence;

import io.ddf.persistence.platform.MappingAdvice;
import io.ddf.persistence.platform.RawMemory;
import io.ddf.persistence.testing.Smaps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a table's mapping asks of the kernel (issue 31 item 10): huge pages for every writable table mapping, fixed
 * or growing, and a growing file's segments faulted in writable when asked (a chain's first layers at creation), as
 * a fixed file's table is. Before MappingAdvice the mappings carried no {@code hg} flag, and a segment's pages were
 * mapped in only as the first stores reached them (its Rss stayed 0 until then): both tests failed.
 */
class MappingAdviceTest
{
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @BeforeEach
    void linuxOnly()
    {
        assumeTrue(Smaps.available(), "reads /proc/self/smaps");
    }

    @Test
    void aFixedTableIsMappedOnHugePagesAndFaultedIn() throws IOException
    {
        assumeTrue(Smaps.transparentHugePages(), "madvise(MADV_HUGEPAGE) needs THP in the kernel");
        final Path path = dir.resolve("fixed.ddf");
        final FilterFile file = FilterFile.create(path, new FilterFileSpec(1, 2, 42L, null, new long[] {1}, 8 * MIB));
        try
        {
            final List<Smaps.Mapping> mappings = Smaps.of(path);
            assertEquals(1, mappings.size(), "one mapping of the file: " + mappings);
            final Smaps.Mapping table = mappings.get(0);
            assertTrue(table.vmFlags().contains("hg"), "MADV_HUGEPAGE on the table: " + table);
            assertEquals(table.sizeKb(), table.rssKb(), "every page faulted in at creation: " + table);
        }
        finally
        {
            file.close();
        }
    }

    @Test
    void aSegmentIsMappedOnHugePagesAndFaultedInWhenAsked() throws IOException
    {
        final Path path = dir.resolve("segmented.ddfs");
        try (SegmentedFile file = SegmentedFile.create(path, SegmentedFile.PAGE, f -> { }))
        {
            file.grow(SegmentedFile.PAGE + 8 * MIB);
            file.map(SegmentedFile.PAGE, 8 * MIB);
            final Smaps.Mapping before = Smaps.of(path).get(0);
            assertEquals(8 * 1024, before.sizeKb());
            assertEquals(0, before.rssKb(), "nothing touched yet: " + before);
            if (Smaps.transparentHugePages())
            {
                assertTrue(before.vmFlags().contains("hg"), "MADV_HUGEPAGE on the segment: " + before);
            }
            file.prefaultForWrite();
            final Smaps.Mapping after = Smaps.of(path).get(0);
            assertEquals(after.sizeKb(), after.rssKb(), "every page faulted in: " + after);
        }
    }

    /**
     * {@link MappingAdvice#touchForWrite} stores into every page a range falls in (a range starting and ending inside
     * a page included), changes no byte, and makes the pages resident; {@link MappingAdvice#populateForWrite} alone
     * makes them resident too. Their one primitive serves the change log's readying ahead and the tables'. On 4 KiB
     * pages (a log segment's mapping), so that each page counts 4 KiB of the mapping's Rss.
     */
    @Test
    void touchForWriteStoresIntoEveryPageOfTheRangeAndChangesNoByte() throws IOException
    {
        final Path path = dir.resolve("touched.ddfs");
        try (SegmentedFile file = SegmentedFile.create(path, SegmentedFile.PAGE, f -> { }))
        {
            file.grow(SegmentedFile.PAGE + 8 * MIB);
            final long address = file.map(SegmentedFile.PAGE, 8 * MIB, MappingAdvice.Pages.SMALL);
            final long[] words = new long[(int)(MIB / 8)];
            for (int i = 0; i < words.length; i += 37)
            {
                words[i] = 0x5EED_0000L + i;
                RawMemory.putLongPlain(address + 8L * i, words[i]);
            }
            assertEquals(256, MappingAdvice.touchForWrite(address, MIB), "the written MiB's pages");
            for (int i = 0; i < words.length; i++)
            {
                assertEquals(words[i], RawMemory.getLongPlain(address + 8L * i), "word " + i + " unchanged");
            }
            final long before = Smaps.of(path).get(0).rssKb();
            // from 100 bytes into page 1000 to 8 bytes into page 1010: 11 pages
            assertEquals(11, MappingAdvice.touchForWrite(address + 1000 * 4096 + 100, 10 * 4096 - 92));
            assertEquals(before + 11 * 4, Smaps.of(path).get(0).rssKb(), "the 11 pages, never touched before");
            assertTrue(MappingAdvice.populateForWrite(address + 2000 * 4096, 4 * 4096), "MADV_POPULATE_WRITE (5.14)");
            assertEquals(before + 15 * 4, Smaps.of(path).get(0).rssKb(), "and the 4 populated");
            assertEquals(0, RawMemory.getLongPlain(address + 1000 * 4096), "a fresh page still reads 0");
        }
    }
}
