package io.ddf.kafka;

import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dedup topology through TopologyTestDriver, which commits (and so logs) after every input record. */
class DedupTopologyTest
{
    static final String APP = "ddf-test";
    static final String CHANGELOG = APP + "-" + Dedup.DEFAULT_STORE_NAME + "-changelog";
    static final long SEED = TestSeed.seed();
    static final FilterSpec QHT = FilterSpec.of("qht").with("memory-bits", 1L << 14);

    @TempDir(factory = ShmTempDir.class)
    Path dir;

    static Properties props(final Path stateDir, final String guarantee)
    {
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        return props;
    }

    /** in (String key, String value) -> dedup by the record key -> out. */
    static Topology byRecordKey(final FilterSpec spec, final boolean mark)
    {
        return byRecordKey(spec, mark, ChangelogFormat.AUTO);
    }

    /** The same, with a changelog format. */
    static Topology byRecordKey(final FilterSpec spec, final boolean mark, final ChangelogFormat format)
    {
        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<String, String> in = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        final Dedup<String, String> dedup = Dedup.<String, String>by(KeyBytes.recordKey(new StringSerializer(), "in"), spec)
            .changelogFormat(format);
        (mark ? dedup.markVerdicts(in) : dedup.dropDuplicates(in)).to("out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** in -> dedup by the value (repartitioned by it) -> out, keeping each record's key. */
    static Topology byValue(final FilterSpec spec)
    {
        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<String, String> in = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        Dedup.dropDuplicates(in, (k, v) -> v == null ? null : v.getBytes(StandardCharsets.UTF_8), spec,
            Serdes.String(), Serdes.String()).to("out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    static TestInputTopic<String, String> input(final TopologyTestDriver driver)
    {
        return driver.createInputTopic("in", new StringSerializer(), new StringSerializer());
    }

    static TestOutputTopic<String, String> output(final TopologyTestDriver driver)
    {
        return driver.createOutputTopic("out", new StringDeserializer(), new StringDeserializer());
    }

    static TestOutputTopic<byte[], byte[]> changelog(final TopologyTestDriver driver)
    {
        return driver.createOutputTopic(CHANGELOG, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static DdfStore store(final TopologyTestDriver driver)
    {
        return (DdfStore)driver.getStateStore(Dedup.DEFAULT_STORE_NAME);
    }

    @ParameterizedTest
    @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
    void dropsDuplicates(final String guarantee)
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(byRecordKey(QHT, false), props(dir, guarantee)))
        {
            final TestInputTopic<String, String> in = input(driver);
            for (final String key : new String[] {"a", "b", "a", "c", "b", "a", "d"})
            {
                in.pipeInput(key, "v-" + key);
            }
            assertEquals(List.of(KeyValue.pair("a", "v-a"), KeyValue.pair("b", "v-b"), KeyValue.pair("c", "v-c"),
                KeyValue.pair("d", "v-d")), output(driver).readKeyValuesToList());
            assertEquals(7, store(driver).elements());
            assertEquals(3, store(driver).duplicates());
        }
    }

    @Test
    void worksThroughTheProcessorApiWithAStoreBuilder()
    {
        final Topology topology = new Topology();
        topology.addSource("source", new org.apache.kafka.common.serialization.StringDeserializer(),
            new org.apache.kafka.common.serialization.StringDeserializer(), "in");
        topology.addProcessor("dedup", () -> new DedupProcessor<String, String>("seen",
            (k, v) -> v.getBytes(StandardCharsets.UTF_8), DedupProcessor.Mode.DROP), "source");
        topology.addStateStore(new DdfStoreBuilder("seen", QHT), "dedup");
        topology.addSink("sink", "out", new StringSerializer(), new StringSerializer(), "dedup");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props(dir, StreamsConfig.AT_LEAST_ONCE)))
        {
            for (final String value : new String[] {"p", "q", "p", "r", "q"})
            {
                input(driver).pipeInput("k", value);
            }
            assertEquals(List.of("p", "q", "r"), output(driver).readValuesToList());
            final DdfStore store = (DdfStore)driver.getStateStore("seen");
            assertEquals(5, store.elements());
            assertTrue(store.contains("p".getBytes(StandardCharsets.UTF_8)));
            assertTrue(driver.producedTopicNames().contains(APP + "-seen-changelog"));
        }
    }

    @Test
    void marksEveryRecordWithItsVerdict()
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(byRecordKey(QHT, true), props(dir, StreamsConfig.AT_LEAST_ONCE)))
        {
            final TestInputTopic<String, String> in = input(driver);
            in.pipeInput("x", "1");
            in.pipeInput("y", "2");
            in.pipeInput(new TestRecord<>("x", "3", new RecordHeaders().add(VerdictHeader.NAME, "UNSEEN".getBytes(StandardCharsets.US_ASCII))));
            in.pipeInput(null, "no key");
            final List<TestRecord<String, String>> out = output(driver).readRecordsToList();
            assertEquals(4, out.size());
            assertEquals(Verdict.UNSEEN, VerdictHeader.of(out.get(0).headers()));
            assertEquals(Verdict.UNSEEN, VerdictHeader.of(out.get(1).headers()));
            assertEquals(Verdict.DUPLICATE, VerdictHeader.of(out.get(2).headers()), "a forged header is replaced");
            assertEquals(1, out.get(2).headers().toArray().length);
            assertEquals(null, VerdictHeader.of(out.get(3).headers()), "a record without a dedup key is not judged");
            assertEquals("no key", out.get(3).value());
        }
    }

    @Test
    void repartitionsByTheDedupKeySoEqualKeysMeetInOneStore()
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(byValue(QHT), props(dir, StreamsConfig.AT_LEAST_ONCE)))
        {
            final TestInputTopic<String, String> in = input(driver);
            in.pipeInput("k1", "click-1");
            in.pipeInput("k2", "click-2");
            in.pipeInput("k3", "click-1");
            in.pipeInput("k4", "click-3");
            in.pipeInput("k5", "click-2");
            assertEquals(List.of(KeyValue.pair("k1", "click-1"), KeyValue.pair("k2", "click-2"),
                KeyValue.pair("k4", "click-3")), output(driver).readKeyValuesToList(), "original keys kept");
            // Every record crossed the repartition topic keyed by its dedup key, so the producer's partitioner
            // sends copies of an element to one partition, hence one task and one store.
            final TestOutputTopic<byte[], byte[]> repartition = driver.createOutputTopic(
                APP + "-" + Dedup.DEFAULT_STORE_NAME + "-by-key-repartition",
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
            final List<String> keys = new ArrayList<>();
            for (final KeyValue<byte[], byte[]> kv : repartition.readKeyValuesToList())
            {
                keys.add(new String(kv.key, StandardCharsets.UTF_8));
            }
            assertEquals(List.of("click-1", "click-2", "click-1", "click-3", "click-2"), keys);
        }
        assertThrows(IllegalArgumentException.class, () -> Dedup.dropDuplicates(new StreamsBuilder().<String, String>stream("in"),
            (k, v) -> v.getBytes(StandardCharsets.UTF_8), QHT), "a value key without serdes cannot be repartitioned");
    }

    @ParameterizedTest
    @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
    void aWordChangelogHoldsOneRecordPerChangedWord(final String guarantee)
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(byRecordKey(QHT, false, ChangelogFormat.WORDS),
            props(dir, guarantee)))
        {
            final TestInputTopic<String, String> in = input(driver);
            final TestOutputTopic<byte[], byte[]> log = changelog(driver);
            final Path file = store(driver).path();
            log.readKeyValuesToList();
            final Random random = new Random(SEED);
            long duplicates = 0;
            long parameterRecords = 0;
            for (int n = 0; n < 400; n++)
            {
                final long[] before = FileWords.read(file);
                final String key = "e" + random.nextInt(250);
                final long duplicatesBefore = store(driver).duplicates();
                in.pipeInput(key, "v");
                final long[] after = FileWords.read(file);
                final Map<Long, Long> changed = new TreeMap<>();
                for (int i = 0; i < after.length; i++)
                {
                    if (after[i] != before[i])
                    {
                        changed.put((long)i, after[i]);
                    }
                }
                final Map<Long, Long> logged = new TreeMap<>();
                for (final KeyValue<byte[], byte[]> kv : log.readKeyValuesToList())
                {
                    final long index = ByteBuffer.wrap(kv.key).getLong();
                    if (index == DdfStore.PARAMETERS_KEY)
                    {
                        parameterRecords++;
                        continue;
                    }
                    assertTrue(logged.put(index, ByteBuffer.wrap(kv.value).getLong()) == null,
                        "word " + index + " logged twice in one commit (seed " + SEED + ")");
                }
                assertEquals(changed, logged, "record " + n + " key " + key + " (seed " + SEED + ")");
                final boolean duplicate = store(driver).duplicates() > duplicatesBefore;
                if (duplicate)
                {
                    duplicates++;
                    // QHT leaves its table alone on a DUPLICATE: only the two counters move.
                    assertTrue(logged.keySet().stream().allMatch(i -> i < FileWords.firstTableWord()),
                        "a DUPLICATE logged table words " + logged + " (seed " + SEED + ")");
                }
                else
                {
                    assertTrue(logged.keySet().stream().anyMatch(i -> i >= FileWords.firstTableWord()),
                        "an UNSEEN element changed no table word (seed " + SEED + ")");
                }
            }
            assertTrue(duplicates > 100, "the stream repeats elements: " + duplicates);
            assertEquals(1, parameterRecords, "the parameters are logged once");
        }
    }

    /**
     * The kind's commits are logged under a format ({@code kind/format}; the default one alone), replayed
     * into a second driver as compaction may have left them (each key's latest record, in the order they came):
     * same bytes, then the same verdicts on a continuation. 600 elements from 900 into a 2 KiB table: the hash
     * changelog logs snapshots in between.
     */
    @ParameterizedTest
    @ValueSource(strings = {"qht", "bloom", "sqf", "qht/words", "qht/blocks", "cuckoo", "cuckoo/blocks", "sbf", "shf",
        "qht-queue"})
    void aDriverRestoredFromTheChangelogHasTheSameBytesAndVerdicts(final String kindAndFormat)
    {
        final String kind = kindAndFormat.split("/")[0];
        final ChangelogFormat format = kindAndFormat.contains("/") ?
            ChangelogFormat.valueOf(kindAndFormat.split("/")[1].toUpperCase(java.util.Locale.ROOT)) : ChangelogFormat.AUTO;
        // qht-queue: the queuing construction, whose rotation lives in the header's state words, not the table.
        final FilterSpec spec = FilterSpec.of(kind.replace("-queue", "")).with("memory-bits", 1L << 14)
            .with(kind.equals("shf") ? Map.of("window", 200L) : Map.of())
            .with(kind.endsWith("-queue") ? Map.of("window", 200L, "subfilters", 4L) : Map.of());
        final Random random = new Random(SEED);
        final List<String> first = new ArrayList<>();
        final List<String> continuation = new ArrayList<>();
        for (int n = 0; n < 600; n++)
        {
            first.add("e" + random.nextInt(900));
            continuation.add("e" + random.nextInt(900));
        }
        final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        final List<TestRecord<String, String>> originalVerdicts;
        final long[] originalWords;
        final long[] originalAfterContinuation;
        try (TopologyTestDriver original = new TopologyTestDriver(byRecordKey(spec, true, format),
            props(dir.resolve("a"), StreamsConfig.EXACTLY_ONCE_V2)))
        {
            first.forEach(k -> input(original).pipeInput(k, "v"));
            records.addAll(changelog(original).readKeyValuesToList());
            originalWords = FileWords.read(store(original).path());
            output(original).readRecordsToList();
            continuation.forEach(k -> input(original).pipeInput(k, "v"));
            originalVerdicts = output(original).readRecordsToList();
            originalAfterContinuation = FileWords.read(store(original).path());
            if (kindAndFormat.equals("qht") || kindAndFormat.equals("bloom"))
            {
                assertEquals(ChangelogFormat.HASHES, store(original).changelogFormat());
                assertTrue(records.stream().anyMatch(r -> r.key.length == 9 && r.key[0] == ChangelogKeys.SNAPSHOT_DONE),
                    "a snapshot was logged");
            }
        }
        try (TopologyTestDriver restored = new TopologyTestDriver(byRecordKey(spec, true, format),
            props(dir.resolve("b"), StreamsConfig.EXACTLY_ONCE_V2)))
        {
            final DdfStore store = store(restored);
            // Compaction keeps each key's latest record where it was; replay that, as a restore after it would.
            final Map<String, KeyValue<byte[], byte[]>> compacted = new java.util.LinkedHashMap<>();
            for (final KeyValue<byte[], byte[]> r : records)
            {
                compacted.remove(Arrays.toString(r.key));
                compacted.put(Arrays.toString(r.key), r);
            }
            store.restoreCallback().restoreAll(new ArrayList<>(compacted.values()));
            assertArrayEquals(originalWords, FileWords.read(store.path()), "restored bytes, " + kindAndFormat);
            assertEquals(600, store.elements());
            continuation.forEach(k -> input(restored).pipeInput(k, "v"));
            final List<TestRecord<String, String>> verdicts = output(restored).readRecordsToList();
            assertEquals(originalVerdicts.size(), verdicts.size());
            for (int i = 0; i < verdicts.size(); i++)
            {
                assertEquals(VerdictHeader.of(originalVerdicts.get(i).headers()), VerdictHeader.of(verdicts.get(i).headers()),
                    kindAndFormat + " continuation record " + i + " (seed " + SEED + ")");
            }
            assertArrayEquals(originalAfterContinuation, FileWords.read(store.path()));
        }
    }

    /**
     * The changelog of hashes (the default for qht), through the driver's per-record commits: an UNSEEN element
     * logs one record, its hash; a DUPLICATE none; the rest of each commit is the counters' words.
     */
    @ParameterizedTest
    @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
    void aHashChangelogLogsOneRecordPerNewElement(final String guarantee)
    {
        final FilterSpec spec = FilterSpec.of("qht").with("memory-bits", 1L << 20);
        try (TopologyTestDriver driver = new TopologyTestDriver(byRecordKey(spec, false), props(dir, guarantee)))
        {
            final TestOutputTopic<byte[], byte[]> log = changelog(driver);
            log.readKeyValuesToList();
            final Random random = new Random(SEED);
            int unseen = 0;
            int hashRecords = 0;
            for (int n = 0; n < 400; n++)
            {
                final String key = "e" + random.nextInt(250);
                final long duplicatesBefore = store(driver).duplicates();
                input(driver).pipeInput(key, "v");
                final boolean duplicate = store(driver).duplicates() > duplicatesBefore;
                final List<Long> hashes = new ArrayList<>();
                for (final KeyValue<byte[], byte[]> kv : log.readKeyValuesToList())
                {
                    if (kv.key.length == ChangelogKeys.TYPED_LENGTH)
                    {
                        assertEquals(ChangelogKeys.HASHES, kv.key[0], "only hashes, no snapshot at this load");
                        hashRecords++;
                        for (final long h : ChangelogKeys.longs(kv.value))
                        {
                            hashes.add(h);
                        }
                    }
                    else
                    {
                        final long index = ByteBuffer.wrap(kv.key).getLong();
                        assertTrue(index == DdfStore.PARAMETERS_KEY || index < FileWords.firstTableWord(),
                            "a table word " + index + " logged (seed " + SEED + ")");
                    }
                }
                final byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
                try (io.ddf.engine.DuplicateFilter reference = spec.builder(Dedup.DEFAULT_STORE_NAME, null).create())
                {
                    assertEquals(duplicate ? List.of() : List.of(reference.hash(keyBytes, 0, keyBytes.length)), hashes,
                        "record " + n + " (" + key + ", " + (duplicate ? "DUPLICATE" : "UNSEEN") + ", seed " + SEED + ")");
                }
                unseen += duplicate ? 0 : 1;
            }
            assertTrue(unseen > 100 && unseen < 300, "the stream repeats elements: " + unseen + " new");
            assertEquals(unseen, hashRecords, "a record per new element");
        }
    }

    /**
     * At-least-once after a crash, with the changelog of words: the instance restarts on its own directory, whose
     * file may be ahead of the changelog. Without the clean-close marker the store cannot know which words were
     * logged, so its first commit logs every word that differs from a fresh file; with the marker it logs only new
     * changes. (The changelog of hashes logs a snapshot instead: {@link HashChangelogTest}.)
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFileLeftByACrashIsLoggedWholeAtItsFirstCommit(final boolean closedCleanly) throws Exception
    {
        final Path crashed = dir.resolve("crashed");
        final Path taskDir = crashed.resolve(APP).resolve("0_0");
        final long[] left;
        try (TopologyTestDriver first = new TopologyTestDriver(byRecordKey(QHT, false, ChangelogFormat.WORDS), props(dir.resolve("first"), StreamsConfig.AT_LEAST_ONCE)))
        {
            for (int i = 0; i < 200; i++)
            {
                input(first).pipeInput("e" + i, "v");
            }
            // What a killed process leaves: the file as the page cache holds it (the marker only after a clean close).
            java.nio.file.Files.createDirectories(taskDir);
            java.nio.file.Files.copy(store(first).path(), taskDir.resolve(Dedup.DEFAULT_STORE_NAME + DdfStore.FILE_SUFFIX));
            if (closedCleanly)
            {
                java.nio.file.Files.write(taskDir.resolve(Dedup.DEFAULT_STORE_NAME + DdfStore.CLEAN_SUFFIX), new byte[0]);
            }
            left = FileWords.read(store(first).path());
        }
        final long[] fresh;
        try (io.ddf.engine.DuplicateFilter empty = QHT.builder(Dedup.DEFAULT_STORE_NAME, dir.resolve("fresh.ddf")).create())
        {
            empty.flush();
            fresh = FileWords.read(dir.resolve("fresh.ddf"));
        }
        final List<KeyValue<byte[], byte[]>> logged;
        final long[] after;
        try (TopologyTestDriver restarted = new TopologyTestDriver(byRecordKey(QHT, false, ChangelogFormat.WORDS), props(crashed, StreamsConfig.AT_LEAST_ONCE)))
        {
            assertArrayEquals(left, FileWords.read(store(restarted).path()), "the file is reopened as it was left");
            input(restarted).pipeInput("e0", "v");
            assertEquals(List.of(), output(restarted).readKeyValuesToList(), "state kept: e0 is a DUPLICATE");
            logged = changelog(restarted).readKeyValuesToList();
            after = FileWords.read(store(restarted).path());
        }
        long differFromFresh = 0;
        for (int i = 0; i < after.length; i++)
        {
            differFromFresh += after[i] != fresh[i] ? 1 : 0;
        }
        final long words = logged.stream().filter(kv -> ByteBuffer.wrap(kv.key).getLong() != DdfStore.PARAMETERS_KEY).count();
        if (closedCleanly)
        {
            assertEquals(2, words, "after a clean close only the new changes (two counters) are logged");
        }
        else
        {
            assertEquals(differFromFresh, words, "after a crash every word that differs from a fresh file is logged");
            // ... so this changelog alone rebuilds the file.
            try (TopologyTestDriver rebuilt = new TopologyTestDriver(byRecordKey(QHT, false, ChangelogFormat.WORDS), props(dir.resolve("rebuilt"), StreamsConfig.AT_LEAST_ONCE)))
            {
                store(rebuilt).restoreCallback().restoreAll(logged);
                assertArrayEquals(after, FileWords.read(store(rebuilt).path()));
            }
        }
    }

    @Test
    void aRestoreRefusesAChangelogOfOtherParameters()
    {
        final List<KeyValue<byte[], byte[]>> records;
        try (TopologyTestDriver a = new TopologyTestDriver(byRecordKey(QHT, false), props(dir.resolve("a"), StreamsConfig.AT_LEAST_ONCE)))
        {
            input(a).pipeInput("x", "v");
            records = changelog(a).readKeyValuesToList();
        }
        assertEquals(DdfStore.PARAMETERS_KEY, ByteBuffer.wrap(records.get(0).key).getLong());
        final FilterSpec bigger = FilterSpec.of("qht").with("memory-bits", 1L << 15);
        try (TopologyTestDriver b = new TopologyTestDriver(byRecordKey(bigger, false), props(dir.resolve("b"), StreamsConfig.AT_LEAST_ONCE)))
        {
            final Exception e = assertThrows(RuntimeException.class, () -> store(b).restoreCallback().restoreAll(records));
            assertTrue(e.getMessage().contains("the changelog was written by a filter with parameters"), e.getMessage());
            final Exception corrupt = assertThrows(RuntimeException.class, () -> store(b).restoreCallback().restoreAll(
                List.of(KeyValue.pair(new byte[] {1, 2}, new byte[8]))));
            assertTrue(corrupt.getMessage().contains("not a ddf store's changelog"), corrupt.getMessage());
            final Exception outside = assertThrows(RuntimeException.class, () -> store(b).restoreCallback().restoreAll(
                List.of(KeyValue.pair(ByteBuffer.allocate(8).putLong(1L << 40).array(), new byte[8]))));
            assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
        }
    }

    @Test
    void badSpecsFailWhenTheTopologyIsBuilt()
    {
        final Exception kind = assertThrows(IllegalArgumentException.class, () -> FilterSpec.of("bloomy"));
        assertTrue(kind.getMessage().contains("unknown filter 'bloomy' (valid: qht"), kind.getMessage());
        final Exception param = assertThrows(IllegalArgumentException.class,
            () -> byRecordKey(FilterSpec.of("qht").with("window", 10L), false));
        assertTrue(param.getMessage().startsWith("ddf store 'ddf-dedup' (qht --window 10): --window is not a parameter of qht"),
            param.getMessage());
        final Exception value = assertThrows(IllegalArgumentException.class,
            () -> byRecordKey(FilterSpec.of("qht").with("memory-bits", 3L), false));
        assertTrue(value.getMessage().startsWith("ddf store 'ddf-dedup' (qht --memory-bits 3): "), value.getMessage());
        final Exception name = assertThrows(IllegalArgumentException.class, () -> new DdfStoreBuilder("a/b", QHT));
        assertTrue(name.getMessage().contains("must be non-empty"), name.getMessage());
        final Exception policy = assertThrows(IllegalArgumentException.class,
            () -> new DdfStoreBuilder("s", QHT).withLoggingEnabled(Map.of("cleanup.policy", "delete")));
        assertTrue(policy.getMessage().contains("must be compacted"), policy.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> new DdfStoreBuilder("s", QHT).withCachingEnabled());
        // a changelog of hashes only for the kinds whose table the new elements' hashes rebuild
        final Exception cuckoo = assertThrows(IllegalArgumentException.class, () -> new DdfStoreBuilder("s",
            FilterSpec.of("cuckoo").with("memory-bits", 1L << 14)).withChangelogFormat(ChangelogFormat.HASHES));
        assertTrue(cuckoo.getMessage().startsWith("ddf store 's' (cuckoo --memory-bits 16384): a changelog of hashes " +
            "rebuilds only [QHT, SQF, BLOOM], not cuckoo"), cuckoo.getMessage());
        final Exception queue = assertThrows(IllegalArgumentException.class, () -> new DdfStoreBuilder("s",
            FilterSpec.of("qht").with(Map.of("memory-bits", 1L << 14, "window", 200L, "subfilters", 4L)))
            .withChangelogFormat(ChangelogFormat.HASHES));
        assertTrue(queue.getMessage().contains("not queue"), queue.getMessage());
        assertEquals(ChangelogFormat.BLOCKS, new DdfStoreBuilder("s", QHT).withChangelogFormat(ChangelogFormat.BLOCKS)
            .changelogFormat());
    }

    @Test
    void storeMetricsReachTheRegistry()
    {
        try (TopologyTestDriver driver = new TopologyTestDriver(byRecordKey(QHT, false), props(dir, StreamsConfig.AT_LEAST_ONCE)))
        {
            for (final String key : new String[] {"a", "b", "a"})
            {
                input(driver).pipeInput(key, "v");
            }
            final Map<String, Object> values = new HashMap<>();
            driver.metrics().forEach((name, metric) ->
            {
                if (name.group().equals(StoreMetrics.GROUP) && Dedup.DEFAULT_STORE_NAME.equals(name.tags().get(StoreMetrics.STORE_TAG)))
                {
                    values.put(name.name(), metric.metricValue());
                }
            });
            assertEquals(3.0, values.get("elements"));
            assertEquals(1.0, values.get("duplicates"));
            assertEquals((double)store(driver).parameters().tableBytes(), values.get("table-bytes"));
            assertNotNull(values.get("changelog-records"));
            assertEquals((double)store(driver).loggedRecords(), values.get("changelog-records"));
        }
    }
}
