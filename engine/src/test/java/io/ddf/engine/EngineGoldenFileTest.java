package io.ddf.engine;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Golden filter files of format 1.0, one per kind and row layout, made by streaming a fixed sequence into a small
 * filter. A fresh run of the same stream must leave the same state and table, byte for byte: hashing, cell
 * derivation, row packing and eviction choices may not change silently under existing files.
 */
class EngineGoldenFileTest extends EngineTestBase
{
    /** Where the table and state begin: everything from the state region on (the header holds a creation time). */
    private static final int STATE_OFFSET = 1024;
    private static final Path GOLDEN_DIR = Path.of("src/test/resources/golden");

    @TempDir
    Path dir;

    static List<String> names()
    {
        return List.of("qht", "qhtd", "qqhtd", "sqf", "qht-wide", "qqhtd-wide", "fifo-bloom");
    }

    private static FilterBuilder builder(final String name)
    {
        switch (name)
        {
            case "qht":
                return Filters.builder(FilterKind.QHT).rows(64).buckets(4).fingerprintBits(8);
            case "qhtd":
                return Filters.builder(FilterKind.QHTD).rows(64).buckets(4).fingerprintBits(8);
            case "qqhtd":
                return Filters.builder(FilterKind.QQHTD).rows(64).buckets(4).fingerprintBits(8);
            case "sqf":
                return Filters.builder(FilterKind.SQF).rows(64).buckets(3).remainderBits(8).reducedBits(4);
            case "qht-wide":
                return Filters.builder(FilterKind.QHT).rows(16).buckets(16).fingerprintBits(6);
            case "qqhtd-wide":
                return Filters.builder(FilterKind.QQHTD).rows(16).buckets(12).fingerprintBits(8);
            case "fifo-bloom":
                return Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 400L).param("target-fpr", 0.01);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private static void streamFixedSequence(final DuplicateFilter filter)
    {
        for (int i = 0; i < 2000; i++)
        {
            filter.stream((long)(i * 7 % 700));
            filter.stream("element-" + (i % 300));
        }
    }

    private static Path make(final String name, final Path file)
    {
        try (DuplicateFilter filter = builder(name).seed(0x5EED_0001L).file(file).create())
        {
            streamFixedSequence(filter);
        }
        return file;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void aFreshRunLeavesTheGoldenStateAndTable(final String name) throws Exception
    {
        final Path golden = dir.resolve(name + ".ddf");
        Files.copy(GOLDEN_DIR.resolve(name + "-1.0.ddf"), golden);
        final Path fresh = make(name, dir.resolve(name + "-fresh.ddf"));
        final byte[] goldenBytes = Files.readAllBytes(golden);
        final byte[] freshBytes = Files.readAllBytes(fresh);
        assertEquals(goldenBytes.length, freshBytes.length);
        assertArrayEquals(Arrays.copyOfRange(goldenBytes, STATE_OFFSET, goldenBytes.length),
            Arrays.copyOfRange(freshBytes, STATE_OFFSET, freshBytes.length));
        try (DuplicateFilter filter = Filters.open(golden))
        {
            assertEquals(builder(name).seed(0x5EED_0001L).parameters().toMap(), filter.parameters().toMap());
            assertEquals(4000, filter.elements());
        }
    }

    /** Rewrites the golden files: only for a deliberate change of the engine's format, with a new version. */
    @Test
    void regenerateGoldenFiles() throws Exception
    {
        Assumptions.assumeTrue(Boolean.getBoolean("ddf.golden.regenerate"), "set -Dddf.golden.regenerate=true");
        Files.createDirectories(GOLDEN_DIR);
        for (final String name : names())
        {
            final Path made = make(name, dir.resolve(name + ".ddf"));
            Files.copy(made, GOLDEN_DIR.resolve(name + "-1.0.ddf"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
