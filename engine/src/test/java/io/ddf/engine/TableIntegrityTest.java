package io.ddf.engine;

import io.ddf.persistence.FilterFileDescriptor;
import io.ddf.persistence.FilterFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A filter whose table changed on disk is found, naming the file and the reason: by its checksum when it was closed
 * cleanly ({@code ddf verify} and a daemon's {@code openAll} refuse it; {@code open} takes it as after a crash and
 * logs why), by the structure of its counters and cells when it was not (a crash), which is refused everywhere.
 */
class TableIntegrityTest extends EngineTestBase
{
    @TempDir
    Path dir;

    @Test
    void flippedTableByteOfACleanlyClosedFilterIsReportedByVerifyAndRefusedByOpenAll() throws IOException
    {
        final Path path = filterWithElements("clean.ddf");
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + 40);
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException verify = assertThrows(FilterFileException.class, () -> FilterInfo.verify(path));
        assertTrue(verify.getMessage().contains("checksum mismatch"), verify.getMessage());
        // A daemon's start-up serves no file changed on disk since its clean close: refused by name.
        final Filters.Opened opened = Filters.openAll(java.util.List.of(path)).get(0);
        assertEquals(null, opened.filter());
        assertEquals(CORRUPT, ((FilterFileException)opened.failure()).reason());
        assertTrue(opened.failure().getMessage().contains(path.toString()) &&
            opened.failure().getMessage().contains("table checksum mismatch"), opened.failure().getMessage());
        assertArrayEquals(before, Files.readAllBytes(path), "a refused file is left unchanged");
    }

    /**
     * Issue 30: a file whose seal does not match (what closing under load left before closes waited for the calls
     * in flight) is opened as after a crash, its structure checked, and the reason logged; closed, it is sealed again.
     */
    @Test
    void sealThatDoesNotMatchIsOpenedAsAfterACrashWithTheReasonLogged() throws IOException
    {
        final Path path = filterWithElements("mismatch.ddf");
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + 40);
        final List<String> logged = new ArrayList<>();
        final Handler handler = new Handler()
        {
            @Override
            public void publish(final LogRecord record)
            {
                logged.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush()
            {
            }

            @Override
            public void close()
            {
            }
        };
        final Logger engineLog = Logger.getLogger("io.ddf.engine");
        engineLog.addHandler(handler);
        try (DuplicateFilter filter = Filters.open(path))
        {
            assertEquals(LastClose.Kind.SEAL_MISMATCH, filter.lastClose().kind());
            assertEquals(1000, filter.elements());
        }
        finally
        {
            engineLog.removeHandler(handler);
        }
        // one warning; the change log's open decision (same boot: nothing to replay) is said at INFO beside it
        final List<String> warnings = logged.stream().filter(line -> line.startsWith("WARNING")).toList();
        assertEquals(1, warnings.size(), logged.toString());
        assertTrue(warnings.get(0).contains(path.toString()) && warnings.get(0).contains("table checksum mismatch") &&
            warnings.get(0).contains("opened as after a crash"), warnings.get(0));
        assertEquals("ok", FilterInfo.verify(path).get("table checksum"), "closed cleanly again: sealed");
    }

    /** A seal that does not match is no pass for a broken structure: refused by name, the file left unchanged. */
    @Test
    void sealThatDoesNotMatchOverABrokenStructureIsRefused() throws IOException
    {
        final Path path = qhtWithStrayBits("broken.ddf", false);
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> Filters.open(path));
        assertEquals(CORRUPT, ex.reason());
        assertTrue(ex.getMessage().contains(path.toString()) && ex.getMessage().contains("table checksum mismatch") &&
            ex.getMessage().contains("table word 7"), ex.getMessage());
        assertArrayEquals(before, Files.readAllBytes(path), "a refused file is left unchanged");
    }

    @Test
    void corruptedCounterAfterACrashIsRefused() throws IOException
    {
        final Path path = filterWithElements("crashed.ddf");
        crash(path);
        // What issue 13 saw served: a counter read as -8.1e18.
        writeLong(path, FilterFileDescriptor.STATE_OFFSET, -8_100_000_000_000_000_000L);
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> Filters.open(path));
        assertEquals(CORRUPT, ex.reason());
        assertTrue(ex.getMessage().contains(path.toString()) && ex.getMessage().contains("not closed cleanly") &&
            ex.getMessage().contains("counter stripe 0"), ex.getMessage());
        assertTrue(assertThrows(FilterFileException.class, () -> FilterInfo.verify(path)).getMessage()
            .contains("counter stripe 0"));
        assertArrayEquals(before, Files.readAllBytes(path), "a refused file is left unchanged");
    }

    @Test
    void strayBitsInAQuotientTableAfterACrashAreRefused() throws IOException
    {
        final Path path = qhtWithStrayBits("stray.ddf", true);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> Filters.open(path));
        assertTrue(ex.getMessage().contains("table word 7") && ex.getMessage().contains("outside its cells"),
            ex.getMessage());
    }

    @Test
    void strayBitsInACuckooTableAfterACrashAreRefused() throws IOException
    {
        final Path path = dir.resolve("cuckoo.ddf");
        try (DuplicateFilter filter = Filters.builder(FilterKind.CUCKOO).memoryBits(1L << 16)
            .buckets(3).fingerprintBits(12).file(path).create())
        {
            filter.stream(1L);
        }
        crash(path);
        // 3 slots of 12 bits: 36 bits of bucket, one bucket per word, bits 36..63 hold nothing. Word 0 of the
        // table follows the kind's 8 state words.
        writeLong(path, FilterFileDescriptor.TABLE_OFFSET + 8 * (8 + 3), 1L << 50);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> Filters.open(path));
        assertTrue(ex.getMessage().contains("cuckoo table word 3"), ex.getMessage());
    }

    @Test
    void strayBitsInAQueueSubfilterAfterACrashAreRefused() throws IOException
    {
        final Path path = dir.resolve("queue.ddf");
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).rows(64).buckets(3).fingerprintBits(8)
            .window(1000).subfilters(4).file(path).create())
        {
            filter.stream(1L);
        }
        crash(path);
        writeLong(path, FilterFileDescriptor.TABLE_OFFSET + 8, 0xFF00_0000_0000_0000L);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> Filters.open(path));
        assertTrue(ex.getMessage().contains("subfilter 0") && ex.getMessage().contains("outside its cells"),
            ex.getMessage());
    }

    @Test
    void aSoundCrashedFilterOpensAndVerifyReportsItsStructure() throws IOException
    {
        final Path path = filterWithElements("sound.ddf");
        crash(path);
        final Map<String, String> report = FilterInfo.verify(path);
        assertEquals("ok", report.get("structure"), report.toString());
        assertTrue(report.get("sealed").startsWith("no"), report.toString());
        try (DuplicateFilter filter = Filters.open(path))
        {
            assertEquals(1000, filter.elements());
        }
        assertEquals("ok", FilterInfo.verify(path).get("table checksum"), "closed cleanly again: sealed");
    }

    /** A small QHT closed cleanly (crashed: unsealed), then stray bits written where its word 7 holds no cell. */
    private Path qhtWithStrayBits(final String name, final boolean crashed) throws IOException
    {
        final Path path = dir.resolve(name);
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).rows(1024).buckets(3).fingerprintBits(8)
            .file(path).create())
        {
            filter.stream(1L);
        }
        if (crashed)
        {
            crash(path);
        }
        // 3 cells of 8 bits: 2 rows per word, so bits 48..63 of every word hold no cell.
        writeLong(path, FilterFileDescriptor.TABLE_OFFSET + 8 * 7, 0x00FF_0000_0000_0000L);
        return path;
    }

    private Path filterWithElements(final String name)
    {
        final Path path = dir.resolve(name);
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).rows(4096).buckets(4).fingerprintBits(8)
            .file(path).create())
        {
            for (long i = 0; i < 1000; i++)
            {
                filter.stream(i % 700);
            }
        }
        return path;
    }

    /** What a crash leaves: a file opened for writing (unsealed) and never closed. */
    private static void crash(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(4), FilterFileDescriptor.SEAL_OFFSET);
        }
    }

    private static void flipByte(final Path path, final long offset) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte)(one.get(0) ^ 0x01)).position(0);
            channel.write(one, offset);
        }
    }

    private static void writeLong(final Path path, final long offset, final long value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
        }
    }
}
