package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import kafka.testkit.KafkaClusterTestKit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real KRaft broker in this JVM (Kafka's own test kit), and {@code ddf kafka-dedup} as child processes of the
 * shaded jar: two instances on a 4-partition topic, one killed with SIGKILL mid-stream; the survivor takes its
 * tasks over, restoring their filters from the changelog. Verdicts are checked against a sequential pass of each
 * partition through a plain filter of the same spec and seed.
 *
 * <p>Run alone: {@code mvn -B -ntp -pl kafka -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=KafkaDedupBrokerIT}. The seed of the input stream: {@code -Dddf.test.seed}.
 */
class KafkaDedupBrokerIT
{
    static final long SEED = TestSeed.seed();
    static final int PARTITIONS = 4;
    static final int RECORDS = 12_000;
    static final int DISTINCT = 5_000;
    static final FilterSpec SPEC = FilterSpec.of("qht").with("memory-bits", 1L << 20);
    static final Duration WAIT = Duration.ofSeconds(120);

    static KafkaClusterTestKit cluster;
    static Admin admin;

    @TempDir
    Path dir;

    final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception
    {
        cluster = TestBroker.start(0);
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        admin = Admin.create(props);
    }

    @AfterAll
    static void stopBroker() throws Exception
    {
        if (admin != null)
        {
            admin.close();
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @AfterEach
    void killChildren()
    {
        for (final Process p : processes)
        {
            p.destroyForcibly();
        }
    }

    @Test
    void exactlyOnceKeepsTheSequentialVerdictsThroughAKillAndRestartsWithoutRestoring() throws Exception
    {
        final Run run = new Run("eos", "exactly_once_v2");
        run.killOneMidStream();
        final Map<Integer, List<Judged>> out = run.output(RECORDS);
        final Map<Integer, Verdict> reference = run.reference();
        int duplicates = 0;
        for (final Map.Entry<Integer, List<Judged>> e : out.entrySet())
        {
            assertEquals(1, e.getValue().size(), "exactly once: record " + e.getKey() + " written " + e.getValue().size() + " times");
            assertEquals(reference.get(e.getKey()), e.getValue().get(0).verdict, "record " + e.getKey() + " (seed " + SEED + ")");
            duplicates += e.getValue().get(0).verdict == Verdict.DUPLICATE ? 1 : 0;
        }
        assertEquals(RECORDS, out.size());
        assertTrue(duplicates > RECORDS / 3, "the stream repeats elements: " + duplicates);
        assertTrue(run.restoredBySurvivor() > 0, "the survivor restored the killed instance's filters: " + run.survivorRestores());
        System.out.printf("exactly_once_v2: %d records, %d judged DUPLICATE, all as a sequential pass; survivor: %s%n",
            RECORDS, duplicates, run.survivorRestores());

        // SIGTERM the survivor: a clean close. Restarted on the same state directory it restores nothing and keeps
        // its filters: copies of earlier elements are DUPLICATE.
        final Process survivor = run.survivor;
        survivor.destroy();
        assertTrue(survivor.waitFor(60, TimeUnit.SECONDS), "closes on SIGTERM");
        // A JVM ended by SIGTERM exits with 143 once its shutdown hook is done; the hook closed Kafka Streams.
        assertEquals(143, survivor.exitValue(), "exit after SIGTERM: " + run.log(run.survivorLog));
        assertTrue(read(run.survivorLog).contains("ddf kafka-dedup: NOT_RUNNING"), "closed cleanly: " + read(run.survivorLog));
        final Path restartLog = dir.resolve("restart.log");
        final Process restarted = run.start(run.survivorDir, restartLog);
        waitFor(() -> read(restartLog).contains("RUNNING (restored"), "the restarted instance runs", restartLog);
        final Matcher m = Pattern.compile("RUNNING \\(restored (\\d+) changelog records").matcher(read(restartLog));
        assertTrue(m.find());
        assertEquals("0", m.group(1), "a clean restart restores nothing: " + read(restartLog));
        try (KafkaProducer<String, String> producer = producer())
        {
            for (int i = 0; i < 50; i++)
            {
                producer.send(new ProducerRecord<>("eos-in", run.keys.get(i), "seq-" + (RECORDS + i)));
            }
        }
        final Map<Integer, List<Judged>> after = run.output(RECORDS + 50);
        for (int i = 0; i < 50; i++)
        {
            assertEquals(Verdict.DUPLICATE, after.get(RECORDS + i).get(0).verdict, "element " + run.keys.get(i) + " kept");
        }
        restarted.destroy();
        assertTrue(restarted.waitFor(60, TimeUnit.SECONDS));
    }

    @Test
    void atLeastOnceLosesNoRecordAndJudgesNoAcknowledgedElementUnseenAgain() throws Exception
    {
        final Run run = new Run("alos", "at_least_once");
        run.killOneMidStream();
        final Map<Integer, List<Judged>> out = run.output(RECORDS);
        final Map<Integer, Verdict> reference = run.reference();
        assertEquals(RECORDS, out.size(), "at least once: every record written");
        final Set<Integer> unseen = new HashSet<>();
        int repeated = 0;
        for (final Map.Entry<Integer, List<Judged>> e : out.entrySet())
        {
            repeated += e.getValue().size() - 1;
            for (final Judged j : e.getValue())
            {
                if (j.verdict == Verdict.UNSEEN)
                {
                    unseen.add(e.getKey());
                }
            }
        }
        final Set<Integer> referenceUnseen = reference.entrySet().stream().filter(e -> e.getValue() == Verdict.UNSEEN)
            .map(Map.Entry::getKey).collect(Collectors.toSet());
        final Set<Integer> extra = new HashSet<>(unseen);
        extra.removeAll(referenceUnseen);
        assertEquals(Set.of(), extra, "records judged UNSEEN although an earlier copy was (seed " + SEED + ")");
        // Whether the survivor restores anything depends on whether the killed instance committed before the kill
        // (at least once commits every 30 s by default; on a loaded CI machine the kill can come first, and then the
        // survivor reprocesses from offset 0 with an empty filter, which the assertions above cover). So the count
        // is reported, not asserted; the exactly-once test asserts restoration.
        System.out.printf("at_least_once: %d records, %d written more than once, no element UNSEEN twice; survivor: %s%n",
            RECORDS, repeated, run.survivorRestores());
    }

    /**
     * Standby replicas (num.standby.replicas=1): each instance holds every task, two as active and two as standby,
     * and a standby's filter, fed from the changelog of hashes, is word for word its active's once it has read the
     * last commit. Then the active instance dies (SIGKILL), the standbys take over with what they hold, and the
     * verdicts are still exactly those of a sequential pass.
     */
    @Test
    void standbyReplicasKeepEachFilterWarmAndTakeOverFromIt() throws Exception
    {
        final Run run = new Run("standby", "exactly_once_v2", "--config", "num.standby.replicas=1");
        final Path dirA = dir.resolve("a");
        final Path dirB = dir.resolve("b");
        final Path logA = dir.resolve("a.log");
        final Path logB = dir.resolve("b.log");
        run.start(dirA, logA);
        waitFor(() -> read(logA).contains("RUNNING"), "instance A runs", logA);
        final Process b = run.start(dirB, logB);
        waitFor(() -> read(logB).contains("RUNNING"), "instance B runs", logB);
        try (KafkaProducer<String, String> producer = producer())
        {
            for (int i = 0; i < RECORDS / 2; i++)
            {
                producer.send(new ProducerRecord<>("standby-in", run.keys.get(i), "seq-" + i));
            }
        }
        run.awaitOutput(RECORDS / 2, logB);
        final Path tasksA = dirA.resolve("standby-app");
        final Path tasksB = dirB.resolve("standby-app");
        waitFor(() -> storeFiles(dirA) == PARTITIONS && storeFiles(dirB) == PARTITIONS && sameFilters(tasksA, tasksB),
            "every task's filter on both instances, the same words", logA);
        final String beforeKill = read(logA);
        b.destroyForcibly();
        b.waitFor();
        try (KafkaProducer<String, String> producer = producer())
        {
            for (int i = RECORDS / 2; i < RECORDS; i++)
            {
                producer.send(new ProducerRecord<>("standby-in", run.keys.get(i), "seq-" + i));
            }
        }
        run.survivor = null;
        run.survivorLog = logA;
        final Map<Integer, List<Judged>> out = run.output(RECORDS);
        final Map<Integer, Verdict> reference = run.reference();
        for (final Map.Entry<Integer, List<Judged>> e : out.entrySet())
        {
            assertEquals(1, e.getValue().size(), "exactly once: record " + e.getKey());
            assertEquals(reference.get(e.getKey()), e.getValue().get(0).verdict, "record " + e.getKey() + " (seed " + SEED + ")");
        }
        System.out.printf("standby: A's restores after B was killed: %s%n",
            read(logA).substring(beforeKill.length()).lines().filter(l -> l.contains("restored")).collect(Collectors.joining("; ")));
    }

    /** @return whether each task's filter file is in both task directories with the same mutable words. */
    static boolean sameFilters(final Path tasksA, final Path tasksB)
    {
        try (var tasks = Files.list(tasksA))
        {
            for (final Path task : tasks.toList())
            {
                final Path a = task.resolve(Dedup.DEFAULT_STORE_NAME + DdfStore.FILE_SUFFIX);
                final Path b = tasksB.resolve(task.getFileName()).resolve(Dedup.DEFAULT_STORE_NAME + DdfStore.FILE_SUFFIX);
                if (Files.exists(a) && (!Files.exists(b) || !java.util.Arrays.equals(FileWords.read(a), FileWords.read(b))))
                {
                    return false;
                }
            }
            return true;
        }
        catch (final IOException | java.io.UncheckedIOException e)
        {
            return false;
        }
    }

    /** One application: topics, two instances, the input produced while they run. */
    final class Run
    {
        final String name;
        final String guarantee;
        final List<String> extra;
        final List<String> keys = new ArrayList<>();
        Process survivor;
        Path survivorDir;
        Path survivorLog;

        Run(final String name, final String guarantee, final String... extra) throws Exception
        {
            this.name = name;
            this.guarantee = guarantee;
            this.extra = List.of(extra);
            admin.createTopics(List.of(new NewTopic(name + "-in", PARTITIONS, (short)1),
                new NewTopic(name + "-out", PARTITIONS, (short)1))).all().get();
            final Random random = new Random(SEED);
            for (int i = 0; i < RECORDS; i++)
            {
                keys.add("e" + random.nextInt(DISTINCT));
            }
        }

        Process start(final Path stateDir, final Path log) throws IOException
        {
            final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-jar", System.getProperty("ddf.kafka.jar", "target/ddf-kafka.jar"),
                "--bootstrap-server", cluster.bootstrapServers(), "--input", name + "-in", "--output", name + "-out",
                "--mark", "--filter", "qht", "--memory-bits", Long.toString(SPEC.params().get("memory-bits").longValue()),
                "--application-id", name + "-app", "--state-dir", stateDir.toString(), "--guarantee", guarantee,
                "--config", "commit.interval.ms=200", "--config", "session.timeout.ms=6000",
                "--config", "heartbeat.interval.ms=1000", "--config", "transaction.timeout.ms=10000",
                "--config", "max.poll.records=200"));
            command.addAll(extra);
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            processes.add(p);
            return p;
        }

        /** Starts A and B, produces a third, kills B with SIGKILL once it has written output, produces the rest. */
        void killOneMidStream() throws Exception
        {
            final Path dirA = dir.resolve("a");
            final Path dirB = dir.resolve("b");
            final Path logA = dir.resolve("a.log");
            final Path logB = dir.resolve("b.log");
            final Process a = start(dirA, logA);
            waitFor(() -> read(logA).contains("RUNNING"), "instance A runs", logA);
            final Process b = start(dirB, logB);
            waitFor(() -> read(logB).contains("RUNNING"), "instance B runs", logB);
            try (KafkaProducer<String, String> producer = producer())
            {
                final int third = RECORDS / 3;
                for (int i = 0; i < third; i++)
                {
                    producer.send(new ProducerRecord<>(name + "-in", keys.get(i), "seq-" + i));
                }
                producer.flush();
                waitFor(() -> Files.exists(dirB) && storeFiles(dirB) > 0, "instance B owns tasks", logB);
                for (int i = third; i < 2 * third; i++)
                {
                    producer.send(new ProducerRecord<>(name + "-in", keys.get(i), "seq-" + i));
                }
                producer.flush();
                // B dies without a word in the middle of the second third, with committed work in the changelog
                // and some in flight.
                awaitOutput(third + third / 2, logB);
                b.destroyForcibly();
                b.waitFor();
                for (int i = 2 * third; i < RECORDS; i++)
                {
                    producer.send(new ProducerRecord<>(name + "-in", keys.get(i), "seq-" + i));
                }
            }
            survivor = a;
            survivorDir = dirA;
            survivorLog = logA;
        }

        /** Waits until the output holds at least {@code count} records (read committed). */
        void awaitOutput(final int count, final Path log) throws InterruptedException
        {
            try (KafkaConsumer<String, String> consumer = consumer(true))
            {
                final List<TopicPartition> partitions = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++)
                {
                    partitions.add(new TopicPartition(name + "-out", p));
                }
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                final long deadline = System.nanoTime() + WAIT.toNanos();
                int seen = 0;
                while (seen < count)
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new AssertionError("timed out waiting for " + count + " outputs; log: " + read(log));
                    }
                    seen += consumer.poll(Duration.ofMillis(100)).count();
                }
            }
        }

        /** @return changelog records the survivor restored after it started, as its reports say. */
        long restoredBySurvivor()
        {
            long total = 0;
            final Matcher m = Pattern.compile("restored (\\d+) changelog records of").matcher(read(survivorLog));
            while (m.find())
            {
                total += Long.parseLong(m.group(1));
            }
            return total;
        }

        /** @return the verdicts of one sequential pass of each partition through a plain filter of the same spec. */
        Map<Integer, Verdict> reference()
        {
            final Map<Integer, Verdict> verdicts = new HashMap<>();
            try (KafkaConsumer<String, String> consumer = consumer(false))
            {
                for (int p = 0; p < PARTITIONS; p++)
                {
                    final TopicPartition partition = new TopicPartition(name + "-in", p);
                    consumer.assign(List.of(partition));
                    consumer.seekToBeginning(List.of(partition));
                    final long end = consumer.endOffsets(List.of(partition)).get(partition);
                    try (DuplicateFilter filter = SPEC.builder(Dedup.DEFAULT_STORE_NAME, null).create())
                    {
                        while (consumer.position(partition) < end)
                        {
                            for (final ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500)))
                            {
                                if (seq(r.value()) < RECORDS)
                                {
                                    final byte[] key = r.key().getBytes(StandardCharsets.UTF_8);
                                    verdicts.put(seq(r.value()), filter.stream(key, 0, key.length));
                                }
                            }
                        }
                    }
                }
            }
            assertEquals(RECORDS, verdicts.size());
            return verdicts;
        }

        /** @return each input record's outputs, by sequence number, once {@code count} distinct ones are there. */
        Map<Integer, List<Judged>> output(final int count)
        {
            final Map<Integer, List<Judged>> out = new HashMap<>();
            try (KafkaConsumer<String, String> consumer = consumer(true))
            {
                final List<TopicPartition> partitions = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++)
                {
                    partitions.add(new TopicPartition(name + "-out", p));
                }
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                final long deadline = System.nanoTime() + WAIT.toNanos();
                while (out.size() < count && System.nanoTime() < deadline)
                {
                    for (final ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500)))
                    {
                        out.computeIfAbsent(seq(r.value()), k -> new ArrayList<>()).add(
                            new Judged(VerdictHeader.of(r.headers())));
                    }
                }
                // Anything still in flight (written twice under at-least-once) arrives within a few commits.
                final long settle = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < settle)
                {
                    for (final ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500)))
                    {
                        out.computeIfAbsent(seq(r.value()), k -> new ArrayList<>()).add(
                            new Judged(VerdictHeader.of(r.headers())));
                    }
                }
            }
            assertEquals(count, out.size(), "outputs after " + WAIT + "; survivor log: " + log(survivorLog));
            return out;
        }

        String survivorRestores()
        {
            return read(survivorLog).lines().filter(l -> l.contains("restored")).collect(Collectors.joining("; "));
        }

        String log(final Path file)
        {
            return file == null ? "" : read(file);
        }
    }

    record Judged(Verdict verdict)
    {
    }

    static int seq(final String value)
    {
        return Integer.parseInt(value.substring("seq-".length()));
    }

    static long storeFiles(final Path stateDir)
    {
        try (var files = Files.walk(stateDir))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(DdfStore.FILE_SUFFIX)).count();
        }
        catch (final IOException e)
        {
            return 0;
        }
    }

    static KafkaProducer<String, String> producer()
    {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    static KafkaConsumer<String, String> consumer(final boolean readCommitted)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException e)
        {
            return "";
        }
    }

    static void waitFor(final BooleanSupplier condition, final String what, final Path log) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out: " + what + "; log: " + read(log));
            }
            Thread.sleep(100);
        }
    }
}
