package io.ddf.engine;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a power cut can leave: a file whose pages come from different moments (the kernel writes dirty pages back
 * in any order, and a cut stops it anywhere), and whose header page may even be torn at 512-byte sectors. For every
 * kind, such a file must open and answer (its structure checked and repaired as after a kill -9) or be refused
 * naming the file and the reason; never crash the process or throw anything else. For the kinds whose updates only
 * ever set bits (a Bloom filter, the capacity filter below a generation), every element in both moments must still
 * be found. Each file is made by streaming a first set (moment A), then a second (moment B), and mixing A's and B's
 * pages at random (the suite's seed); FORMAT.md's table of what each kind guarantees comes from this test's output.
 */
final class TornFileTest extends EngineTestBase
{
    private static final int CAPACITY = 20_000;
    private static final int MIXES = 6;
    private static final int PAGE = 4096;
    private static final int SECTOR = 512;
    /** What each kind did, for FORMAT.md: name → "opened a/b, refused r, missing m of n". */
    private static final Map<String, String> RESULTS = new TreeMap<>();

    @TempDir
    Path dir;

    static Stream<FilterConfigs.Config> configs()
    {
        final List<FilterConfigs.Config> configs = new ArrayList<>(FilterConfigs.all());
        // the daemon's BF.ADD kind, sized so that both moments fit its first generation
        configs.add(new FilterConfigs.Config("fifo-bloom capacity=4x",
            c -> Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 4 * c).seed(c), 0.0, true));
        return configs.stream();
    }

    @ParameterizedTest
    @MethodSource("configs")
    void pagesFromDifferentMomentsOpenAndAnswerOrAreRefused(final FilterConfigs.Config config) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ config.name().hashCode());
        final long[] first = random.longs(CAPACITY / 4).toArray();
        final long[] second = random.longs(CAPACITY / 4).toArray();
        final Path path = dir.resolve("moments.ddf");
        final byte[] momentA;
        final byte[] momentB;
        try (DuplicateFilter filter = config.build(CAPACITY, path).sync(SyncPolicy.NO).create())
        {
            for (final long e : first)
            {
                filter.stream(e);
            }
            // what the page cache holds now: a moment (reading another descriptor of the file drops this JVM's
            // lock on it, which no other process contends for here)
            momentA = Files.readAllBytes(path);
            for (final long e : second)
            {
                filter.stream(e);
            }
            momentB = Files.readAllBytes(path);
        }
        // what the kind itself forgot of the first moment by the second (a power cut had no part in it)
        final Path whole = dir.resolve("moment-b.ddf");
        Files.write(whole, momentB);
        Files.setPosixFilePermissions(whole, PosixFilePermissions.fromString("rw-------"));
        final long[] held;
        try (DuplicateFilter filter = Filters.open(whole, SyncPolicy.NO))
        {
            held = java.util.Arrays.stream(first).filter(filter::contains).toArray();
        }
        final int forgotten = first.length - held.length;
        int opened = 0;
        int refused = 0;
        int missing = 0;
        for (int mix = 0; mix < MIXES; mix++)
        {
            final Path torn = dir.resolve("torn-" + mix + ".ddf");
            Files.write(torn, mixed(momentA, momentB, random, mix % 2 == 1));
            Files.setPosixFilePermissions(torn, PosixFilePermissions.fromString("rw-------"));
            try (DuplicateFilter filter = Filters.open(torn, SyncPolicy.NO))
            {
                opened++;
                final int lost = absent(filter, first);
                if (keepsWhatBothMomentsHold(config))
                {
                    assertEquals(0, absent(filter, held), config + ": an element both moments hold is missing from " +
                        "the mix " + mix);
                }
                missing += lost;
                for (final long e : random.longs(200).toArray())
                {
                    filter.stream(e); // and it keeps working
                }
            }
            catch (final FilterFileException e)
            {
                refused++;
                assertEquals(FilterFileException.Reason.CORRUPT, e.reason(), e.getMessage());
                assertTrue(e.getMessage().contains(torn.toString()), "names the file: " + e.getMessage());
            }
        }
        synchronized (RESULTS)
        {
            RESULTS.put(config.name(), "opened " + opened + "/" + MIXES + ", refused " + refused +
                (opened > 0 ? ", first-moment elements missing " + missing + " of " + opened * first.length : "") +
                "; the second moment alone misses " + forgotten + " of " + first.length);
        }
    }

    /**
     * The kinds whose every element lives in cells that are only ever set, or in one row (a 64-byte line, stored as a
     * whole: never torn) that its own updates rewrite: whatever page each row or cell comes from, an element both
     * moments hold is there. Not so the kinds that move entries between buckets (cuckoo's relocations, DSQF's linked
     * buckets), nor those that forget at random or by age, whose losses the report shows instead.
     */
    private static boolean keepsWhatBothMomentsHold(final FilterConfigs.Config config)
    {
        final String name = config.name();
        return java.util.stream.Stream.of("bloom", "fifo-bloom", "qht", "qhtd", "qqhtd", "sqf", "exact-window", "shf",
            "cshf", "queue L=4 over bloom", "queue L=4 over qht", "queue L=4 over sqf", "queue L=4 over exact-window")
            .anyMatch(prefix -> name.equals(prefix) || name.startsWith(prefix + " "));
    }

    private static int absent(final DuplicateFilter filter, final long[] elements)
    {
        int absent = 0;
        for (final long e : elements)
        {
            absent += filter.contains(e) ? 0 : 1;
        }
        return absent;
    }

    @AfterAll
    static void report()
    {
        RESULTS.forEach((name, result) -> System.out.println("torn: " + name + ": " + result));
    }

    /**
     * Page by page, A's or B's; the header page, for every other mix, torn: its 512-byte sectors from either.
     */
    private static byte[] mixed(final byte[] a, final byte[] b, final SplittableRandom random, final boolean tearHeader)
    {
        assertEquals(a.length, b.length);
        final byte[] out = new byte[a.length];
        for (int page = 0; page < a.length; page += PAGE)
        {
            if (page == 0 && tearHeader)
            {
                for (int sector = 0; sector < PAGE; sector += SECTOR)
                {
                    System.arraycopy(random.nextBoolean() ? a : b, sector, out, sector, SECTOR);
                }
                continue;
            }
            System.arraycopy(random.nextBoolean() ? a : b, page, out, page, Math.min(PAGE, a.length - page));
        }
        return out;
    }
}
