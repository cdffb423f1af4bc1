package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The changelog of hashes without Kafka: a filter and its {@link HashChangelog} driven as a store drives them, the
 * records kept in a list, compacted as a broker may have compacted them (any subset of the records a later record
 * of the same key supersedes, and of the deletes), and restored into a fresh filter, whose words must be the
 * writer's. Small tables and chunks, so that a run logs several snapshots and a crash can cut one short.
 */
class HashChangelogTest
{
    static final int CHUNK_WORDS = 64;

    @TempDir
    Path dir;

    /** @return bloom, qht, sqf, or qht-wide: rows of two words, which chunks of {@link #chunkWords} cut in two. */
    static FilterSpec spec(final String kind)
    {
        final FilterSpec spec = FilterSpec.of(kind.replace("-wide", "")).with("memory-bits", 1L << 14);
        return kind.equals("bloom") ? spec.with("hash-functions", 3L) :
            kind.equals("qht-wide") ? spec.with("buckets", 4L).with("fingerprint-bits", 30L) : spec;
    }

    /** @return table words per snapshot chunk: odd for wide rows, so that some rows straddle two chunks. */
    static int chunkWords(final String kind)
    {
        return kind.equals("qht-wide") ? 63 : CHUNK_WORDS;
    }

    /** A filter and its changelog, driven as {@link DdfStore} drives them. */
    static final class Writer implements AutoCloseable
    {
        final DuplicateFilter filter;
        final HashChangelog log;
        final List<KeyValue<byte[], byte[]>> out;

        Writer(final FilterSpec spec, final Path file, final List<KeyValue<byte[], byte[]>> out)
        {
            this(spec, file, out, CHUNK_WORDS);
        }

        Writer(final FilterSpec spec, final Path file, final List<KeyValue<byte[], byte[]>> out, final int chunkWords)
        {
            this.filter = spec.builder("s", file).openOrCreate();
            this.out = out;
            this.log = new HashChangelog("s", filter, (k, v) -> out.add(KeyValue.pair(k, v)), chunkWords,
                false);
        }

        Verdict stream(final long element)
        {
            final long hash = filter.hash(element);
            final Verdict verdict = filter.streamHash(hash);
            log.streamed(hash, -1, verdict);
            return verdict;
        }

        void commit()
        {
            log.commit((k, v) -> out.add(KeyValue.pair(k, v)));
        }

        long[] words()
        {
            return words(filter);
        }

        static long[] words(final DuplicateFilter filter)
        {
            final var words = Filters.mutableWords(filter);
            final long[] all = new long[(int)words.words()];
            for (int i = 0; i < all.length; i++)
            {
                all[i] = words.getPlain(i);
            }
            return all;
        }

        @Override
        public void close()
        {
            filter.close();
        }
    }

    /** Streams {@code n} elements from an alphabet, committing at random points, and commits at the end. */
    static void streamAndCommit(final Writer w, final SplittableRandom random, final int n, final int alphabet)
    {
        int untilCommit = 1 + random.nextInt(100);
        for (int i = 0; i < n; i++)
        {
            w.stream(random.nextInt(alphabet));
            if (--untilCommit == 0)
            {
                w.commit();
                untilCommit = 1 + random.nextInt(100);
            }
        }
        w.commit();
    }

    /**
     * @return the records a compaction may have left: each record that a later one of the same key supersedes is
     *         dropped with probability {@code superseded}, each delete that nothing supersedes with {@code deletes}.
     */
    static List<KeyValue<byte[], byte[]>> compact(final List<KeyValue<byte[], byte[]>> records,
        final SplittableRandom random, final double superseded, final double deletes)
    {
        final Set<ByteBuffer> later = new HashSet<>();
        final List<KeyValue<byte[], byte[]>> kept = new ArrayList<>();
        for (int i = records.size() - 1; i >= 0; i--)
        {
            final KeyValue<byte[], byte[]> r = records.get(i);
            final boolean isSuperseded = !later.add(ByteBuffer.wrap(r.key));
            final double drop = isSuperseded ? superseded : r.value == null ? deletes : 0;
            if (random.nextDouble() >= drop)
            {
                kept.add(0, r);
            }
        }
        return kept;
    }

    static long count(final List<KeyValue<byte[], byte[]>> records, final byte type)
    {
        return records.stream().filter(r -> r.key.length == ChangelogKeys.TYPED_LENGTH && r.key[0] == type).count();
    }

    /**
     * @return a fresh filter of the spec with the records restored into it, and its changelog's epoch. The restore
     *         runs on a thread of its own, as a restoring instance's stream thread is not the writer's: the counters
     *         are striped by thread, and a replay must not count.
     */
    static long[] restore(final FilterSpec spec, final List<KeyValue<byte[], byte[]>> records, final long[] epoch)
    {
        final long[][] words = new long[1][];
        final RuntimeException[] failure = new RuntimeException[1];
        final Thread restorer = new Thread(() ->
        {
            try (Writer fresh = new Writer(spec, null, new ArrayList<>()))
            {
                fresh.log.opened(false, false, Path.of("."));
                records.forEach(r -> fresh.log.restore(r.key, r.value));
                if (epoch != null)
                {
                    epoch[0] = fresh.log.epoch();
                }
                words[0] = fresh.words();
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
        return words[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"bloom", "qht", "sqf"})
    void aRestoreRebuildsTheSameWordsWhateverCompactionRemoved(final String kind)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final FilterSpec spec = spec(kind);
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer w = new Writer(spec, null, records))
        {
            w.log.opened(false, false, dir);
            streamAndCommit(w, random, 6000, 4000);
            assertTrue(count(records, ChangelogKeys.SNAPSHOT_DONE) >= 2,
                "several snapshots: " + count(records, ChangelogKeys.SNAPSHOT_DONE) + " (seed " + TestSeed.seed() + ")");
            assertTrue(records.stream().anyMatch(r -> r.value == null), "batches deleted once a snapshot covered them");
            final long[] epoch = new long[1];
            assertArrayEquals(w.words(), restore(spec, records, epoch), "the whole log (seed " + TestSeed.seed() + ")");
            assertEquals(w.log.epoch(), epoch[0]);
            assertArrayEquals(w.words(), restore(spec, compact(records, random, 1, 1), epoch), "fully compacted");
            assertEquals(w.log.epoch(), epoch[0]);
            for (int trial = 0; trial < 20; trial++)
            {
                assertArrayEquals(w.words(), restore(spec, compact(records, random, random.nextDouble(),
                    random.nextDouble()), null), kind + " trial " + trial + " (seed " + TestSeed.seed() + ")");
            }
        }
    }

    /**
     * At-least-once, killed while it logged a snapshot: the topic holds the first chunk of the new snapshot and none
     * of its marker. A restore of that topic, however compacted, gives what the whole of it gives (the state
     * before the crash): the cut snapshot's chunk must not have replaced the last complete snapshot's (it would
     * with one key range for all snapshots, where rows straddle chunks). The next instance restores it, goes on (and
     * logs further snapshots), and a restore of the whole topic, however compacted, gives that instance's words.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bloom", "qht", "qht-wide"})
    void aSnapshotCutShortByACrashLosesNothing(final String kind)
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() + 1);
        final FilterSpec spec = spec(kind);
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer first = new Writer(spec, null, records, chunkWords(kind)))
        {
            first.log.opened(false, false, dir);
            streamAndCommit(first, random, 6000, 4000);
        }
        // a crash in each snapshot in turn, after its first chunk (a row the cut splits is hurt one time in three)
        List<KeyValue<byte[], byte[]>> topic = null;
        long[] beforeTheCrash = null;
        int cuts = 0;
        for (int marker = 1; marker < records.size(); marker++)
        {
            if (records.get(marker).key.length != ChangelogKeys.TYPED_LENGTH || records.get(marker).key[0] != ChangelogKeys.SNAPSHOT_DONE)
            {
                continue;
            }
            int chunks = 0;
            while (isChunk(records.get(marker - 1 - chunks)))
            {
                chunks++;
            }
            assertTrue(chunks >= 4, "a snapshot has several chunks: " + chunks);
            topic = new ArrayList<>(records.subList(0, marker - chunks + 1));
            beforeTheCrash = restore(spec, topic, null);
            assertArrayEquals(beforeTheCrash, restore(spec, compact(topic, random, 1, 1), null),
                kind + " cut in snapshot " + (++cuts) + ", compacted (seed " + TestSeed.seed() + ")");
            for (int trial = 0; trial < 5; trial++)
            {
                assertArrayEquals(beforeTheCrash, restore(spec, compact(topic, random, random.nextDouble(),
                    random.nextDouble()), null), kind + " cut in snapshot " + cuts + ", trial " + trial);
            }
        }
        assertTrue(cuts >= 10, "snapshots: " + cuts);
        try (Writer second = new Writer(spec, null, topic, chunkWords(kind)))
        {
            second.log.opened(false, false, dir);
            compact(topic, random, 0.5, 0.5).forEach(r -> second.log.restore(r.key, r.value));
            assertArrayEquals(beforeTheCrash, second.words());
            streamAndCommit(second, random, 3000, 8000);
            for (int trial = 0; trial < 10; trial++)
            {
                assertArrayEquals(second.words(), restore(spec, compact(topic, random, random.nextDouble(),
                    random.nextDouble()), null), kind + " trial " + trial + " (seed " + TestSeed.seed() + ")");
            }
        }
    }

    static boolean isChunk(final KeyValue<byte[], byte[]> r)
    {
        return r.key.length == ChangelogKeys.TYPED_LENGTH && r.key[0] == ChangelogKeys.CHUNK;
    }

    /**
     * At-least-once, restarted on its own directory after a crash: the file holds elements the changelog lacks.
     * Its first commit logs a whole snapshot and every non-zero header word, and the topic then rebuilds the file.
     */
    @Test
    void aFileAheadOfTheChangelogIsSnapshottedAtItsFirstCommit()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() + 2);
        final FilterSpec spec = spec("qht");
        final Path file = dir.resolve("s.ddf");
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        try (Writer before = new Writer(spec, file, records))
        {
            before.log.opened(false, false, dir);
            streamAndCommit(before, random, 500, 4000);
            before.log.persist(dir); // a checkpoint
            for (int i = 0; i < 100; i++)
            {
                before.stream(10_000 + i); // processed, never logged: the crash
            }
        }
        final int logged = records.size();
        try (Writer after = new Writer(spec, file, records))
        {
            after.log.opened(true, false, dir);
            assertTrue(!after.log.fullyLogged(), "a file left by a crash is not taken as logged");
            after.commit();
            final List<KeyValue<byte[], byte[]>> first = records.subList(logged, records.size());
            assertEquals(1, count(first, ChangelogKeys.SNAPSHOT_DONE), "one snapshot");
            assertEquals((Filters.mutableWords(after.filter).words() - after.log.headerWords + CHUNK_WORDS - 1) / CHUNK_WORDS,
                count(first, ChangelogKeys.CHUNK), "of the whole table");
            assertTrue(after.log.fullyLogged());
            assertArrayEquals(after.words(), restore(spec, records, null));
            assertArrayEquals(after.words(), restore(spec, compact(records, random, 1, 1), null));
        }
    }

    @Test
    void oneRecordPerCommitHoldsItsNewElementsHashesAndAFullBatchGoesOutAtOnce()
    {
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        final FilterSpec spec = FilterSpec.of("qht").with("memory-bits", 1L << 24);
        try (Writer w = new Writer(spec, null, records))
        {
            w.log.opened(false, false, dir);
            final List<Long> unseen = new ArrayList<>();
            for (long e = 0; e < HashChangelog.BATCH + 10; e++)
            {
                if (w.stream(e) == Verdict.UNSEEN)
                {
                    unseen.add(w.filter.hash(e));
                }
                w.stream(e); // a DUPLICATE adds nothing
            }
            assertEquals(1, records.size(), "a full batch is logged at once, before the commit");
            w.commit();
            final List<Long> logged = new ArrayList<>();
            for (final KeyValue<byte[], byte[]> r : records.subList(0, 2))
            {
                assertEquals(ChangelogKeys.HASHES, r.key[0]);
                for (final long h : ChangelogKeys.longs(r.value))
                {
                    logged.add(h);
                }
            }
            assertEquals(unseen, logged, "the new elements' hashes, in order");
            assertEquals(HashChangelog.BATCH * Long.BYTES, records.get(0).value.length);
            assertEquals(0, ChangelogKeys.number(records.get(0).key));
            assertEquals(1, ChangelogKeys.number(records.get(1).key), "numbered in the epoch");
            assertTrue(records.subList(2, records.size()).stream().allMatch(r -> r.key.length == Long.BYTES),
                "then the counters' words");
            records.clear();
            w.commit();
            assertEquals(List.of(), records, "nothing new, nothing logged");
        }
    }

    @Test
    void recordsThatDoNotFitAreRefused()
    {
        try (Writer w = new Writer(spec("qht"), null, new ArrayList<>()))
        {
            w.log.opened(false, false, dir);
            final Exception hashes = assertThrows(RuntimeException.class,
                () -> w.log.restore(ChangelogKeys.typed(ChangelogKeys.HASHES, 0), new byte[7]));
            assertTrue(hashes.getMessage().contains("not a multiple of 8"), hashes.getMessage());
            final Exception chunk = assertThrows(RuntimeException.class,
                () -> w.log.restore(ChangelogKeys.typed(ChangelogKeys.CHUNK, 1L << 30), new byte[8]));
            assertTrue(chunk.getMessage().contains("outside"), chunk.getMessage());
            final Exception type = assertThrows(RuntimeException.class,
                () -> w.log.restore(ChangelogKeys.typed((byte)'Z', 0), new byte[8]));
            assertTrue(type.getMessage().contains("not a ddf store's changelog"), type.getMessage());
            final long[] before = w.words();
            w.log.restore(ChangelogKeys.typed(ChangelogKeys.HASHES, 5), null);
            assertArrayEquals(before, w.words(), "a deleted batch changes nothing");
        }
    }
}
