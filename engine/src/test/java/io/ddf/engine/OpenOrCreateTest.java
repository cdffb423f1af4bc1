package io.ddf.engine;

import io.ddf.persistence.FilterFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Opening a file with parameters: the header decides, and a differing parameter is named. */
class OpenOrCreateTest extends EngineTestBase
{
    @TempDir
    Path dir;

    @Test
    void anExistingFileIsOpenedAndContinues()
    {
        final Path file = dir.resolve("f.ddf");
        try (DuplicateFilter filter = Filters.builder(FilterKind.QQHTD).memoryBits(1 << 16).file(file).openOrCreate())
        {
            assertEquals(Verdict.UNSEEN, filter.stream("x"));
        }
        try (DuplicateFilter filter = Filters.builder(FilterKind.QQHTD).file(file).openOrCreate())
        {
            assertEquals(Verdict.DUPLICATE, filter.stream("x"));
            assertEquals(1L << 16, filter.parameters().get("memory-bits"));
        }
    }

    @Test
    void aDifferingParameterIsNamedAndTheFileIsUnchanged() throws Exception
    {
        final Path file = dir.resolve("f.ddf");
        Filters.builder(FilterKind.SQF).memoryBits(1 << 16).buckets(3).remainderBits(8).reducedBits(4).seed(7)
            .file(file).create().close();
        final byte[] before = Files.readAllBytes(file);
        final FilterFileException buckets = assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.SQF).buckets(4).file(file).openOrCreate());
        assertEquals(FilterFileException.Reason.PARAMETER_MISMATCH, buckets.reason());
        assertTrue(buckets.getMessage().contains("buckets=3") && buckets.getMessage().contains("buckets=4"),
            buckets.getMessage());
        final FilterFileException kind = assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.QHT).file(file).openOrCreate());
        assertTrue(kind.getMessage().contains("filter=sqf"), kind.getMessage());
        final FilterFileException seed = assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.SQF).seed(8).file(file).openOrCreate());
        assertTrue(seed.getMessage().contains("seed=7"), seed.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));
        // The refused opens released the file: it opens again.
        Filters.open(file).close();
    }

    @Test
    void createRefusesAnExistingFile()
    {
        final Path file = dir.resolve("f.ddf");
        Filters.builder(FilterKind.QHT).file(file).create().close();
        final FilterFileException e = assertThrows(FilterFileException.class,
            () -> Filters.builder(FilterKind.QHT).file(file).create());
        assertEquals(FilterFileException.Reason.EXISTS, e.reason());
    }
}
