package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.ddf.kafka.HashChangelogTest.compact;
import static io.ddf.kafka.HashChangelogTest.count;
import static io.ddf.kafka.HashChangelogTest.isChunk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The changelog of calls ({@link ChangelogFormat#CALLS}) of a fifo-bloom with a window of time, without Kafka: a
 * filter and its changelog driven as a store drives them, with event times (most in order, one in ten late by up to
 * half a window, some a window late), the records compacted as a broker may have compacted them, and restored into
 * a fresh file, which must hold the writer's words and give its verdicts on a continuation. The window is a minute of
 * four slices and the table small, so that a run turns generations by time and by count, expires them, seals stale
 * slots, and logs several snapshots.
 */
class CallChangelogTest
{
    static final int CHUNK_WORDS = 64;
    static final Duration WINDOW = Duration.ofMinutes(1);
    static final long START = 1_700_000_000_000L;

    @TempDir
    Path dir;

    /** Words of the counters' stripes, first in the file's words: which stripe holds a count means nothing. */
    static final int COUNTER_WORDS = 16 * 8;

    static FilterSpec spec()
    {
        return spec(400);
    }

    static FilterSpec spec(final long capacity)
    {
        return FilterSpec.of("fifo-bloom").with("capacity", capacity).with("target-fpr", 1e-3).with("subfilters", 4L)
            .window(WINDOW);
    }

    /** A windowed filter on a file and its changelog of calls, driven as {@link DdfStore} drives them. */
    static final class Writer implements AutoCloseable
    {
        final Path file;
        final HashChangelog log;
        final List<KeyValue<byte[], byte[]>> out;
        DuplicateFilter filter;
        int reopens;

        Writer(final Path file, final List<KeyValue<byte[], byte[]>> out)
        {
            this(file, out, spec());
        }

        Writer(final Path file, final List<KeyValue<byte[], byte[]>> out, final FilterSpec spec)
        {
            this.file = file;
            this.filter = spec.builder("s", file).singleWriter().openOrCreate();
            this.out = out;
            this.log = new HashChangelog("s", filter, (k, v) -> out.add(KeyValue.pair(k, v)), CHUNK_WORDS, true);
            log.reopenAfterWords(() ->
            {
                filter.close();
                filter = spec.builder("s", file).singleWriter().openOrCreate();
                reopens++;
                return filter;
            });
        }

        Verdict stream(final long element, final long time)
        {
            final DuplicateFilter f = log.settle();
            final long hash = f.hash(element);
            final Verdict verdict = time < 0 ? f.streamHash(hash) : f.streamHash(hash, time);
            log.streamed(hash, time, verdict);
            return verdict;
        }

        void commit()
        {
            log.commit((k, v) -> out.add(KeyValue.pair(k, v)));
        }

        /**
         * @return the file's words, but for the counters' stripes, which are replaced by the sums of the counts (a
         *         restore on another thread counts in another stripe).
         */
        long[] words()
        {
            final long[] words = HashChangelogTest.Writer.words(filter);
            final long[] sums = new long[2];
            for (int i = 0; i < COUNTER_WORDS; i++)
            {
                if (i % 8 < 2)
                {
                    sums[i % 8] += words[i];
                }
                words[i] = 0;
            }
            words[0] = sums[0];
            words[1] = sums[1];
            return words;
        }

        @Override
        public void close()
        {
            filter.close();
        }
    }

    /** Calls with event times: one in ten late by up to half a window, one in a hundred a window late. */
    static final class Calls
    {
        final SplittableRandom random;
        final int alphabet;
        long time;

        Calls(final SplittableRandom random, final int alphabet, final long start)
        {
            this.random = random;
            this.alphabet = alphabet;
            this.time = start;
        }

        long element()
        {
            return random.nextInt(alphabet);
        }

        long time()
        {
            time += random.nextInt(200);
            final int draw = random.nextInt(100);
            return draw == 0 ? time - WINDOW.toMillis() - random.nextInt(1000) :
                draw < 10 ? time - random.nextLong(WINDOW.toMillis() / 2) : time;
        }
    }

    /** Streams {@code n} calls, committing at random points, and commits at the end; returns the verdicts. */
    static List<Verdict> streamAndCommit(final Writer w, final Calls calls, final int n)
    {
        final List<Verdict> verdicts = new ArrayList<>();
        int untilCommit = 1 + calls.random.nextInt(100);
        for (int i = 0; i < n; i++)
        {
            verdicts.add(w.stream(calls.element(), calls.time()));
            if (--untilCommit == 0)
            {
                w.commit();
                untilCommit = 1 + calls.random.nextInt(100);
            }
        }
        w.commit();
        return verdicts;
    }

    /**
     * @return the words of a fresh file with the records restored into it (on a thread of its own, as a restoring
     *         instance's stream thread is not the writer's), then the verdicts of {@code continuation} streamed into
     *         it, as {words, verdicts as 0/1, {times the file was reopened}}.
     */
    long[][] restore(final List<KeyValue<byte[], byte[]>> records, final long[][] continuation)
    {
        final long[][] result = new long[3][];
        final RuntimeException[] failure = new RuntimeException[1];
        final Thread restorer = new Thread(() ->
        {
            try (Writer fresh = new Writer(fresh(), new ArrayList<>()))
            {
                fresh.log.opened(false, false, dir);
                records.forEach(r -> fresh.log.restore(r.key, r.value));
                result[0] = fresh.words();
                result[1] = new long[continuation == null ? 0 : continuation[0].length];
                for (int i = 0; i < result[1].length; i++)
                {
                    result[1][i] = fresh.stream(continuation[0][i], continuation[1][i]) == Verdict.DUPLICATE ? 1 : 0;
                }
                result[2] = new long[] {fresh.reopens};
            }
            catch (final RuntimeException e)
            {
                failure[0] = e;
            }
        });
        restorer.start();
        try
        {
            restorer.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failure[0] != null)
        {
            throw failure[0];
        }
        return result;
    }

    private int files;

    private Path fresh()
    {
        return dir.resolve("restore-" + (files++) + ".ddf");
    }

    static long[][] continuation(final Calls calls, final int n)
    {
        final long[][] c = new long[2][n];
        for (int i = 0; i < n; i++)
        {
            c[0][i] = calls.element();
            c[1][i] = calls.time();
        }
        return c;
    }

    static long[] verdicts(final Writer w, final long[][] continuation)
    {
        final long[] v = new long[continuation[0].length];
        for (int i = 0; i < v.length; i++)
        {
            v[i] = w.stream(continuation[0][i], continuation[1][i]) == Verdict.DUPLICATE ? 1 : 0;
        }
        return v;
    }

    /**
     * Whatever compaction removed, a restore rebuilds the writer's words (its turns, expiries, seals and counters
     * included) and then gives its verdicts.
     */
    @Test
    void aRestoreRebuildsTheSameWordsAndVerdictsWhateverCompactionRemoved()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final Calls calls = new Calls(random, 400, START);
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer w = new Writer(dir.resolve("w.ddf"), records))
        {
            w.log.opened(false, false, dir);
            final List<Verdict> verdicts = streamAndCommit(w, calls, 20_000);
            final long duplicates = verdicts.stream().filter(v -> v == Verdict.DUPLICATE).count();
            assertTrue(duplicates > 2000 && duplicates < 18_000, "duplicates " + duplicates);
            final var window = w.filter.timeWindow().orElseThrow();
            assertTrue(window.turnsByTime() > 50 && window.turnsByCount() > 0 && window.expired() > 50,
                window.toString());
            assertTrue(count(records, ChangelogKeys.SNAPSHOT_DONE) >= 3,
                "several snapshots: " + count(records, ChangelogKeys.SNAPSHOT_DONE) + " (seed " + TestSeed.seed() + ")");
            assertTrue(records.stream().anyMatch(r -> r.value == null), "batches deleted once a snapshot covered them");
            final long[] words = w.words();
            final long[][] next = continuation(calls, 3000);
            final long[][] whole = restore(records, next);
            final long[][] compacted = restore(compact(records, random, 1, 1), next);
            final long[] expected = verdicts(w, next);
            assertArrayEquals(words, whole[0], "the whole log (seed " + TestSeed.seed() + ")");
            assertArrayEquals(expected, whole[1], "its verdicts");
            assertArrayEquals(words, compacted[0], "fully compacted");
            assertArrayEquals(expected, compacted[1], "its verdicts");
            assertEquals(1, compacted[2][0], "reopened once, after the snapshot's words, before the calls since");
            for (int trial = 0; trial < 10; trial++)
            {
                final long[][] r = restore(compact(records, random, random.nextDouble(), random.nextDouble()), next);
                assertArrayEquals(words, r[0], "trial " + trial + " (seed " + TestSeed.seed() + ")");
                assertArrayEquals(expected, r[1], "trial " + trial + " verdicts (seed " + TestSeed.seed() + ")");
            }
        }
    }

    /**
     * At-least-once, killed while it logged a snapshot: the topic holds the first chunk of the new snapshot and none
     * of its header words or marker. A restore of that topic, however compacted, gives what the whole of it gives,
     * and the next instance goes on from it.
     */
    @Test
    void aSnapshotCutShortByACrashLosesNothing()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() + 1);
        final Calls calls = new Calls(random, 400, START);
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer first = new Writer(dir.resolve("first.ddf"), records))
        {
            first.log.opened(false, false, dir);
            streamAndCommit(first, calls, 8000);
        }
        final long[][] next = continuation(calls, 1000);
        List<KeyValue<byte[], byte[]>> topic = null;
        long[][] beforeTheCrash = null;
        int cuts = 0;
        final List<Integer> markers = new ArrayList<>();
        for (int marker = 1; marker < records.size(); marker++)
        {
            if (records.get(marker).key.length == ChangelogKeys.TYPED_LENGTH &&
                records.get(marker).key[0] == ChangelogKeys.SNAPSHOT_DONE)
            {
                markers.add(marker);
            }
        }
        assertTrue(markers.size() >= 3, "snapshots: " + markers.size());
        // the first, one in the middle and the last (each restore maps a file: the machine's time goes there)
        for (final int marker : List.of(markers.get(0), markers.get(markers.size() / 2), markers.get(markers.size() - 1)))
        {
            int at = marker - 1;
            while (!isChunk(records.get(at)))
            {
                at--; // the header words, logged after the chunks
            }
            int chunks = 0;
            while (isChunk(records.get(at - chunks)))
            {
                chunks++;
            }
            assertTrue(chunks >= 4, "a snapshot has several chunks: " + chunks);
            topic = new ArrayList<>(records.subList(0, at - chunks + 2));
            beforeTheCrash = restore(topic, next);
            final long[][] compacted = restore(compact(topic, random, 1, 1), next);
            assertArrayEquals(beforeTheCrash[0], compacted[0], "cut in snapshot " + (++cuts) + ", compacted (seed " +
                TestSeed.seed() + ")");
            assertArrayEquals(beforeTheCrash[1], compacted[1]);
            final long[][] r = restore(compact(topic, random, random.nextDouble(), random.nextDouble()), next);
            assertArrayEquals(beforeTheCrash[0], r[0], "cut in snapshot " + cuts + ", compacted at random");
            assertArrayEquals(beforeTheCrash[1], r[1]);
        }
        try (Writer second = new Writer(dir.resolve("second.ddf"), topic))
        {
            second.log.opened(false, false, dir);
            compact(topic, random, 0.5, 0.5).forEach(r -> second.log.restore(r.key, r.value));
            assertArrayEquals(beforeTheCrash[0], second.words());
            streamAndCommit(second, calls, 6000);
            final long[] words = second.words();
            final long[][] more = continuation(calls, 1000);
            final long[] expected = verdicts(second, more);
            for (int trial = 0; trial < 3; trial++)
            {
                final long[][] r = restore(compact(topic, random, random.nextDouble(), random.nextDouble()), more);
                assertArrayEquals(words, r[0], "trial " + trial + " (seed " + TestSeed.seed() + ")");
                assertArrayEquals(expected, r[1]);
            }
        }
    }

    /**
     * At-least-once, restarted on its own directory after a crash: the file holds calls the changelog lacks. Its
     * first commit logs a whole snapshot with every header word, and the topic then rebuilds the file.
     */
    @Test
    void aFileAheadOfTheChangelogIsSnapshottedAtItsFirstCommit()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() + 2);
        final Calls calls = new Calls(random, 400, START);
        final Path file = dir.resolve("s.ddf");
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer before = new Writer(file, records))
        {
            before.log.opened(false, false, dir);
            streamAndCommit(before, calls, 1500);
            before.log.persist(dir); // a checkpoint
            for (int i = 0; i < 300; i++)
            {
                before.stream(calls.element(), calls.time()); // processed, never logged: the crash
            }
        }
        final int logged = records.size();
        try (Writer after = new Writer(file, records))
        {
            after.log.opened(true, false, dir);
            assertTrue(!after.log.fullyLogged(), "a file left by a crash is not taken as logged");
            after.commit();
            final List<KeyValue<byte[], byte[]>> first = records.subList(logged, records.size());
            assertEquals(1, count(first, ChangelogKeys.SNAPSHOT_DONE), "one snapshot");
            assertEquals(after.log.headerWords, first.stream().filter(r -> r.key.length == Long.BYTES).count(),
                "with every header word");
            assertTrue(after.log.fullyLogged());
            final long[][] next = continuation(calls, 1000);
            final long[][] whole = restore(records, next);
            final long[][] compacted = restore(compact(records, random, 1, 1), next);
            final long[] words = after.words();
            final long[] expected = verdicts(after, next);
            assertArrayEquals(words, whole[0]);
            assertArrayEquals(expected, whole[1]);
            assertArrayEquals(words, compacted[0]);
            assertArrayEquals(expected, compacted[1]);
        }
    }

    /**
     * One record per commit holds its calls in order, each its hash and time (a late time, and a call without one,
     * included), about 10 bytes a call; a full batch goes out at once.
     */
    @Test
    void oneRecordHoldsTheCallsInOrderWithTheirTimes() throws Exception
    {
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer w = new Writer(dir.resolve("r.ddf"), records, spec(1_000_000))) // no snapshot
        {
            w.log.opened(false, false, dir);
            final List<Long> hashes = new ArrayList<>();
            final List<Long> times = new ArrayList<>();
            for (long e = 0; e < HashChangelog.BATCH + 10; e++)
            {
                final long time = e == 5 ? -1 : e % 7 == 0 ? START + e - 30_000 : START + e;
                w.stream(e % 1000, time);
                hashes.add(w.filter.hash(e % 1000));
                times.add(time);
            }
            assertEquals(1, records.size(), "a full batch is logged at once, before the commit");
            w.commit();
            assertEquals(2, records.size(), "no header word at a commit");
            final List<Long> loggedHashes = new ArrayList<>();
            final List<Long> loggedTimes = new ArrayList<>();
            for (final KeyValue<byte[], byte[]> r : records)
            {
                assertEquals(ChangelogKeys.CALLS, r.key[0]);
                final long[][] c = ChangelogKeys.calls(r.value);
                for (int i = 0; i < c[0].length; i++)
                {
                    loggedHashes.add(c[0][i]);
                    loggedTimes.add(c[1][i]);
                }
            }
            assertEquals(hashes, loggedHashes);
            assertEquals(times, loggedTimes);
            final double bytesPerCall = (double)records.get(0).value.length / HashChangelog.BATCH;
            assertTrue(bytesPerCall < 10.5, bytesPerCall + " bytes a call");
            assertEquals(1, ChangelogKeys.number(records.get(1).key), "numbered in the epoch");
            records.clear();
            w.commit();
            assertEquals(List.of(), records, "nothing new, nothing logged");
            final Exception cut = assertThrows(RuntimeException.class,
                () -> w.log.restore(ChangelogKeys.typed(ChangelogKeys.CALLS, 0), new byte[10]));
            assertTrue(cut.getMessage().contains("not a ddf store's changelog"), cut.getMessage());
        }
        assertTrue(Files.exists(dir.resolve("r.ddf")));
    }

    /** The filter's own counters are the writer's after a restore: the replay streams each call once. */
    @Test
    void theCountersOfARestoredFilterAreTheWriters()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() + 3);
        final Calls calls = new Calls(random, 500, START);
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer w = new Writer(dir.resolve("c.ddf"), records);
             Writer fresh = new Writer(dir.resolve("c2.ddf"), new ArrayList<>()))
        {
            w.log.opened(false, false, dir);
            streamAndCommit(w, calls, 3000);
            fresh.log.opened(false, false, dir);
            records.forEach(r -> fresh.log.restore(r.key, r.value));
            final DuplicateFilter restored = fresh.log.settle();
            assertEquals(w.filter.elements(), restored.elements());
            assertEquals(w.filter.duplicates(), restored.duplicates());
            assertEquals(w.filter.timeWindow().orElseThrow().newestGeneration(),
                restored.timeWindow().orElseThrow().newestGeneration());
            assertTrue(Filters.mutableWords(restored).words() > 0);
        }
    }
}
