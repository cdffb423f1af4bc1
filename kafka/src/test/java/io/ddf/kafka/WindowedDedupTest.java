package io.ddf.kafka;

import io.ddf.kafka.bench.WindowStoreDedupApp;
import io.ddf.persistence.testing.TestSeed;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf kafka-dedup --window} on event time, through TopologyTestDriver (which commits, and so logs, after every
 * record), beside the window-store dedup of Confluent's tutorial ({@link WindowStoreDedupApp}): both judge each
 * record at the task's stream time, the latest record timestamp seen. A window of a minute in four slices: ddf
 * remembers an id for at least W = 60 s after it passed and forgets it by W + W/4 = 75 s; the window store
 * remembers it exactly W. A late or out-of-order record is judged against what is remembered at the stream time,
 * and an id it brings is remembered from the stream time, not from its own timestamp.
 */
class WindowedDedupTest
{
    static final Duration WINDOW = Duration.ofMinutes(1);
    static final long W = WINDOW.toMillis();
    static final long FORGOTTEN = W + W / 4;
    static final long START = 1_700_000_000_000L;

    @TempDir(factory = ShmTempDir.class)
    Path dir;

    static FilterSpec spec(final long capacity)
    {
        return FilterSpec.of("fifo-bloom").with("capacity", capacity).with("target-fpr", 1e-6).with("subfilters", 4L)
            .window(WINDOW);
    }

    static Topology topology(final String app, final long capacity)
    {
        return app.equals("ddf") ? DedupTopologyTest.byRecordKey(spec(capacity), false) :
            WindowStoreDedupApp.topology("in", "out", WINDOW, false, false);
    }

    /** One record: its id, its timestamp (ms after {@link #START}), its value (unique). */
    record In(String id, long time, String value)
    {
    }

    /** Pipes the records, in order, and returns the values that came out. */
    static List<String> run(final TopologyTestDriver driver, final List<In> records)
    {
        final TestInputTopic<String, String> in = DedupTopologyTest.input(driver);
        for (final In r : records)
        {
            in.pipeInput(r.id(), r.value(), START + r.time());
        }
        return DedupTopologyTest.output(driver).readValuesToList();
    }

    static List<In> records(final Object... idAndSeconds)
    {
        final List<In> records = new ArrayList<>();
        for (int i = 0; i < idAndSeconds.length; i += 2)
        {
            final long ms = Math.round(((Number)idAndSeconds[i + 1]).doubleValue() * 1000);
            records.add(new In((String)idAndSeconds[i], ms, idAndSeconds[i] + "@" + idAndSeconds[i + 1]));
        }
        return records;
    }

    /**
     * An id repeated inside the window is dropped (up to 59.999 s after it passed); after W + W/L (75 s) it passes
     * again, and is then remembered from there. ddf and the window store alike; between W and W + W/L the window
     * store lets it pass and ddf may still remember it (its promise: at least W, at most W + W/L).
     */
    @ParameterizedTest
    @ValueSource(strings = {"ddf", "window-store"})
    void aRepeatInsideTheWindowIsDroppedAndPassesAgainAfterTheWindowAndASlice(final String app)
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(app, 1000),
            DedupTopologyTest.props(dir, StreamsConfig.EXACTLY_ONCE_V2)))
        {
            final List<String> out = run(driver, records("a", 0, "b", 1, "a", 30, "b", 40, "a", 59.999, "c", 60,
                "a", 75, "a", 100, "a", 134.999, "c", 140, "a", 150, "b", 200));
            assertEquals(List.of("a@0", "b@1", "c@60", "a@75", "c@140", "a@150", "b@200"), out, app);
            if (app.equals("window-store"))
            {
                // exactly W: 60 s after it passed, an id passes again
                assertEquals(List.of("d@300", "d@360"), run(driver, records("d", 300, "d", 359.999, "d", 360)));
            }
        }
    }

    /**
     * The rule for late and out-of-order records: the stream time is the latest timestamp seen and never goes back;
     * a record older than it is judged against what is remembered at the stream time, and an id it brings is
     * remembered from the stream time. So a late copy of a remembered id is dropped however late it is, and a late
     * new id is remembered a window from the stream time, longer than from its own timestamp.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ddf", "window-store"})
    void lateAndOutOfOrderRecordsAreJudgedAtTheStreamTime(final String app)
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(app, 1000),
            DedupTopologyTest.props(dir, StreamsConfig.EXACTLY_ONCE_V2)))
        {
            final List<String> out = run(driver, records(
                "x", 100,      // stream time 100 s
                "y", 10,       // 90 s late, new: passes, remembered from 100 s
                "x", 50,       // late copy of x (passed at 100 s): dropped
                "w", 0,        // 100 s late, new: passes, remembered from 100 s
                "w", 99,       // late again: dropped (remembered from 100 s, not from 0 s)
                "y", 150,      // 50 s after the stream time y came at: dropped (by its own time it was 140 s)
                "x", 40,       // still late (stream time 150 s): x passed at 100 s, dropped
                "w", 159.999,  // 59.999 s after the stream time w came at: dropped
                "z", 240,      // stream time 240 s: y, w and x are forgotten (passed at 100 s, 140 s ago)
                "y", 100,      // late by 140 s, forgotten: passes, remembered from 240 s
                "y", 299.999,  // dropped
                "x", 240));    // passes
            assertEquals(List.of("x@100", "y@10", "w@0", "z@240", "y@100", "x@240"), out, app);
        }
    }

    /**
     * A stream of ids over ten windows, one record in ten late by up to half a window, where no id comes back
     * between W and W + W/L after it last passed (where ddf's promise leaves it free): ddf and the window store give
     * the same verdicts, those of the exact rule (dropped if and only if the id passed less than W before, at the
     * stream time).
     */
    @Test
    void ddfAndTheWindowStoreGiveTheSameVerdictsInsideTheWindow()
    {
        final List<In> records = stream(new SplittableRandom(TestSeed.seed()), 3000, 120);
        final List<String> expected = exact(records);
        final long passed = expected.size();
        assertTrue(passed > 500 && passed < 2500, "passed " + passed + " of " + records.size());
        final List<String> ddf;
        final List<String> windowStore;
        try (TopologyTestDriver driver = new TopologyTestDriver(topology("ddf", 3000),
            DedupTopologyTest.props(dir.resolve("ddf"), StreamsConfig.EXACTLY_ONCE_V2)))
        {
            ddf = run(driver, records);
            assertEquals(0, DedupTopologyTest.store(driver).timeWindow().orElseThrow().recycledEarly());
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(topology("window-store", 0),
            DedupTopologyTest.props(dir.resolve("ws"), StreamsConfig.EXACTLY_ONCE_V2)))
        {
            windowStore = run(driver, records);
        }
        assertEquals(expected, windowStore, "the window store (seed " + TestSeed.seed() + ")");
        assertEquals(expected, ddf, "ddf (seed " + TestSeed.seed() + ")");
    }

    /**
     * @return {@code n} records of ids drawn from {@code alphabet}, about 150 ms apart in event time, one in ten late by
     *         up to half a window; a draw whose id last passed (by the exact rule) between W − 1 s and W + W/L + 1 s
     *         before the stream time is left out.
     */
    static List<In> stream(final SplittableRandom random, final int n, final int alphabet)
    {
        final List<In> records = new ArrayList<>();
        final Map<String, Long> passed = new HashMap<>();
        long time = 0;
        long streamTime = -1;
        while (records.size() < n)
        {
            time += random.nextInt(300);
            final long t = random.nextInt(10) == 0 ? Math.max(0, time - random.nextLong(W / 2)) : time;
            final String id = "id-" + random.nextInt(alphabet);
            final long s = Math.max(streamTime, t);
            final Long last = passed.get(id);
            if (last != null && s - last >= W - 1000 && s - last < FORGOTTEN + 1000)
            {
                continue;
            }
            streamTime = s;
            if (last == null || s - last >= W)
            {
                passed.put(id, s);
            }
            records.add(new In(id, t, id + "#" + records.size()));
        }
        return records;
    }

    /** @return the values the exact rule lets pass: an id passes if it did not pass less than W before. */
    static List<String> exact(final List<In> records)
    {
        final Map<String, Long> passed = new HashMap<>();
        final List<String> out = new ArrayList<>();
        long streamTime = -1;
        for (final In r : records)
        {
            streamTime = Math.max(streamTime, r.time());
            final Long last = passed.get(r.id());
            if (last == null || streamTime - last >= W)
            {
                passed.put(r.id(), streamTime);
                out.add(r.value());
            }
        }
        return out;
    }

    /**
     * A new instance restored from the changelog of calls (as compaction may have left it, after several
     * snapshots) holds the same filter file and gives the same verdicts as the one that wrote it, on the rest of
     * the stream: the exact rule's.
     */
    @ParameterizedTest
    @ValueSource(strings = {StreamsConfig.EXACTLY_ONCE_V2, StreamsConfig.AT_LEAST_ONCE})
    void aRestoreFromTheChangelogKeepsTheVerdicts(final String guarantee)
    {
        final List<In> records = stream(new SplittableRandom(TestSeed.seed() + 1), 3000, 120);
        final List<In> first = records.subList(0, 2000);
        final List<In> rest = records.subList(2000, records.size());
        final List<String> expected = exact(records);
        final List<KeyValue<byte[], byte[]>> log;
        final long[] originalWords;
        final List<String> original = new ArrayList<>();
        // a capacity of 400 new ids a window (about 330 come): a small table, so that snapshots are logged
        try (TopologyTestDriver a = new TopologyTestDriver(topology("ddf", 400),
            DedupTopologyTest.props(dir.resolve("a"), guarantee)))
        {
            original.addAll(run(a, first));
            log = DedupTopologyTest.changelog(a).readKeyValuesToList();
            originalWords = counted(FileWords.read(DedupTopologyTest.store(a).path()));
            assertEquals(ChangelogFormat.CALLS, DedupTopologyTest.store(a).changelogFormat());
            original.addAll(run(a, rest));
        }
        assertEquals(expected, original, "the writer (seed " + TestSeed.seed() + ")");
        assertTrue(HashChangelogTest.count(log, ChangelogKeys.SNAPSHOT_DONE) >= 2,
            "snapshots: " + HashChangelogTest.count(log, ChangelogKeys.SNAPSHOT_DONE));
        final Map<String, KeyValue<byte[], byte[]>> compacted = new LinkedHashMap<>();
        for (final KeyValue<byte[], byte[]> r : log)
        {
            compacted.remove(Arrays.toString(r.key));
            compacted.put(Arrays.toString(r.key), r);
        }
        try (TopologyTestDriver b = new TopologyTestDriver(topology("ddf", 400),
            DedupTopologyTest.props(dir.resolve("b"), guarantee)))
        {
            final DdfStore store = DedupTopologyTest.store(b);
            store.restoreCallback().restoreAll(new ArrayList<>(compacted.values()));
            assertArrayEquals(originalWords, counted(FileWords.read(store.path())), "the restored file");
            assertEquals(first.size(), store.elements());
            final List<String> restored = run(b, rest);
            assertEquals(original.subList(original.size() - restored.size(), original.size()), restored,
                "the restored instance's verdicts (seed " + TestSeed.seed() + ")");
            assertEquals(expected.size() - restored.size(), exact(first).size());
        }
    }

    /** @return the file's words with the counters' stripes summed into the first two (a stripe means nothing). */
    static long[] counted(final long[] words)
    {
        final long[] sums = new long[2];
        for (int i = 0; i < CallChangelogTest.COUNTER_WORDS; i++)
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

    /**
     * The window store's changelog: one record per id that passed (none for a duplicate), keyed by the id, its time
     * and a sequence number, as RocksDB holds it.
     */
    @Test
    void theWindowStoreLogsOneRecordPerIdThatPassed()
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology("window-store", 0),
            DedupTopologyTest.props(dir, StreamsConfig.EXACTLY_ONCE_V2)))
        {
            final List<String> out = run(driver, records("a", 0, "a", 1, "b", 2, "a", 70));
            assertEquals(List.of("a@0", "b@2", "a@70"), out);
            final List<KeyValue<byte[], byte[]>> log = driver.createOutputTopic(DedupTopologyTest.APP + "-" +
                WindowStoreDedupApp.STORE + "-changelog", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readKeyValuesToList();
            assertEquals(3, log.size());
            final ByteBuffer key = ByteBuffer.wrap(log.get(2).key);
            assertEquals(1 + Long.BYTES + Integer.BYTES, key.remaining(), "the id, its time, a sequence number");
            assertEquals('a', key.get(0));
            assertEquals(START + 70_000, key.getLong(1));
        }
    }
}
