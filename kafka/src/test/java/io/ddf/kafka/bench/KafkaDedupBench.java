package io.ddf.kafka.bench;

import io.ddf.engine.tune.Candidate;
import io.ddf.engine.tune.Objective;
import io.ddf.engine.tune.Tuner;
import io.ddf.engine.tune.Workload;
import io.ddf.kafka.TestBroker;
import kafka.testkit.KafkaClusterTestKit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code ddf kafka-dedup} against the RocksDB-store dedup a Kafka Streams user writes instead
 * ({@link RocksDbDedupApp}), on one real KRaft broker that this JVM starts (Kafka's test kit, as
 * {@code KafkaDedupBrokerIT}): one input topic, then for each round and each guarantee both applications in turn
 * (the first of the pair alternating between rounds), each as a child JVM with the same options, from offset 0 into
 * an output topic of its own. For each run: records/s from its RUNNING line to its last output record, the
 * changelog's size on the broker, its peak RSS and state on disk, then a new instance on an empty state directory
 * restores the changelog (restore time as the application reports it), and the output is checked id by id.
 * Run by {@code bench/kafka-vs-rocksdb.sh}, which passes its settings as system properties ({@link Settings}).
 */
public final class KafkaDedupBench
{
    private static final Pattern RUNNING = Pattern.compile(
        "RUNNING \\(restored (\\d+) changelog records since start, (\\d+) ms restoring\\)");

    private final Settings settings;
    private final String bootstrap;
    private final Admin admin;
    private final BenchInput input;

    private KafkaDedupBench(final Settings settings, final String bootstrap, final Admin admin, final BenchInput input)
    {
        this.settings = settings;
        this.bootstrap = bootstrap;
        this.admin = admin;
        this.input = input;
    }

    /**
     * @param args none: the settings are system properties.
     * @throws Exception when the broker or a run fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final Settings settings = Settings.fromSystemProperties().withFilterPicked();
        final Path work = Files.createTempDirectory("ddf-kafka-bench");
        final KafkaClusterTestKit cluster = TestBroker.start(settings.port());
        try
        {
            final Properties adminProps = new Properties();
            adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            try (Admin admin = Admin.create(adminProps))
            {
                admin.createTopics(List.of(new NewTopic("in", settings.partitions(), (short)1))).all().get();
                final BenchInput input = new BenchInput(settings.records(), settings.ids(), settings.seed());
                final long produceStart = System.nanoTime();
                input.produce(cluster.bootstrapServers(), "in");
                System.err.printf("bench: produced %d records, %d distinct ids (alphabet %d) in %.1f s%n",
                    input.records(), input.distinct(), input.alphabet(), (System.nanoTime() - produceStart) / 1e9);
                final KafkaDedupBench bench = new KafkaDedupBench(settings, cluster.bootstrapServers(), admin, input);
                final List<RunResult> results = new ArrayList<>();
                for (int round = 1; round <= settings.rounds(); round++)
                {
                    for (final String guarantee : settings.guarantees())
                    {
                        final List<String> apps = new ArrayList<>(settings.apps());
                        if (round % 2 == 0)
                        {
                            java.util.Collections.reverse(apps);
                        }
                        for (final String app : apps)
                        {
                            final RunResult r = bench.run(app, guarantee, round, work);
                            System.err.println("bench: " + r);
                            results.add(r);
                        }
                    }
                }
                System.out.print(settings.describe(input) + "\n" + new ResultTable(results, settings.apps()).markdown());
            }
        }
        finally
        {
            cluster.close();
            deleteTree(work);
        }
    }

    private RunResult run(final String app, final String guarantee, final int round, final Path work) throws Exception
    {
        final String id = app + "-" + guarantee.replace('_', '-') + "-" + round;
        final String output = id + "-out";
        admin.createTopics(List.of(new NewTopic(output, settings.partitions(), (short)1))).all().get();
        final Path state = work.resolve(id);
        final double seconds;
        final long rss;
        final long missing;
        final long duplicated;
        try (ChildApp child = new ChildApp(command(app, id, output, guarantee, state), work.resolve(id + ".log"));
             OutputTally tally = new OutputTally(bootstrap, output, settings.partitions()))
        {
            final ChildApp.Line running = child.await(l -> l.contains(" RUNNING"), Duration.ofMinutes(2));
            final long expected = input.distinct();
            if (!tally.readUntil(expected, expected - expected / 100, Duration.ofSeconds(3), settings.timeout()))
            {
                throw new IllegalStateException(id + ": output incomplete after " + settings.timeout() + ": " +
                    tally.distinct() + " of " + expected + " ids; log:\n" + child.tail());
            }
            seconds = (tally.lastArrivalNanos() - running.nanos()) / 1e9;
            rss = child.peakRssBytes();
            System.err.printf("bench: %s: peak RSS %d MB, now %d MB anonymous and %d MB of files%n", id, rss >> 20,
                child.status("RssAnon:") >> 20, child.status("RssFile:") >> 20);
            if (Boolean.getBoolean("bench.jcmd"))
            {
                // a look inside (with -XX:NativeMemoryTracking=summary in APP_JAVA_OPTS): where the memory went
                final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(child.pid()), "VM.native_memory", "summary").redirectErrorStream(true).start();
                System.err.println(new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
            missing = expected - tally.distinct();
            duplicated = tally.duplicated();
            child.stop();
        }
        final long stateBytes = treeBytes(state);
        final String changelog = id + "-" + (app.startsWith("ddf") ? "ddf-dedup" : RocksDbDedupApp.STORE) + "-changelog";
        final long logBytes = logBytes(changelog);
        final long[] counted = countRecords(changelog);
        final Path restoreState = work.resolve(id + "-restore");
        final long restoreMillis;
        final long restored;
        final long restoreRss;
        try (ChildApp child = new ChildApp(command(app, id, output, guarantee, restoreState), work.resolve(id + "-restore.log")))
        {
            final Matcher m = RUNNING.matcher(child.await(l -> RUNNING.matcher(l).find(), Duration.ofMinutes(10)).text());
            if (!m.find())
            {
                throw new IllegalStateException("no restore figures in " + child.tail());
            }
            restored = Long.parseLong(m.group(1));
            restoreMillis = Long.parseLong(m.group(2));
            restoreRss = child.peakRssBytes();
            child.stop();
        }
        admin.deleteTopics(List.of(output, changelog)).all().get();
        deleteTree(state);
        deleteTree(restoreState);
        return new RunResult(app, guarantee, round, seconds, input.records() / seconds, logBytes, counted[0],
            counted[1], rss, stateBytes, restoreMillis, restored, restoreRss, missing, duplicated);
    }

    private List<String> command(final String app, final String id, final String output, final String guarantee,
        final Path state)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(settings.appJavaOptions());
        if (app.startsWith("ddf"))
        {
            command.addAll(List.of("-jar", settings.ddfJar()));
        }
        else
        {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), RocksDbDedupApp.class.getName()));
        }
        command.addAll(List.of("--bootstrap-server", bootstrap, "--input", "in", "--output", output,
            "--application-id", id, "--state-dir", state.toString(), "--guarantee", guarantee,
            // a restarted instance joins at once instead of waiting for the closed one's session to expire
            "--config", "session.timeout.ms=6000", "--config", "heartbeat.interval.ms=1500"));
        if (app.startsWith("ddf"))
        {
            command.addAll(settings.ddfArgs());
            if (app.startsWith("ddf-"))
            {
                // an alternative changelog: ddf-words, ddf-blocks, ddf-hashes
                command.addAll(List.of("--changelog-format", app.substring("ddf-".length())));
            }
        }
        else if (settings.rocksDbCaching())
        {
            command.add("--caching");
        }
        return command;
    }

    private long logBytes(final String topic) throws Exception
    {
        long bytes = 0;
        final Map<Integer, Map<String, LogDirDescription>> dirs =
            admin.describeLogDirs(List.of(0)).allDescriptions().get();
        for (final Map<String, LogDirDescription> byDir : dirs.values())
        {
            for (final LogDirDescription d : byDir.values())
            {
                for (final Map.Entry<TopicPartition, ReplicaInfo> e : d.replicaInfos().entrySet())
                {
                    bytes += e.getKey().topic().equals(topic) ? e.getValue().size() : 0;
                }
            }
        }
        return bytes;
    }

    /** @return {records, key + value bytes} of a topic, read committed. */
    private long[] countRecords(final String topic)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        long count = 0;
        long bytes = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer()))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < settings.partitions(); p++)
            {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            boolean done = false;
            while (!done)
            {
                for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200)))
                {
                    count++;
                    bytes += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
                }
                done = true;
                for (final TopicPartition tp : partitions)
                {
                    done &= consumer.position(tp) >= end.get(tp);
                }
            }
        }
        return new long[] {count, bytes};
    }

    private static long treeBytes(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(Files::isRegularFile).mapToLong(f ->
            {
                try
                {
                    return Files.size(f);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path p : files.sorted(Comparator.reverseOrder()).toArray(Path[]::new))
            {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The bench's settings, from system properties ({@code bench/kafka-vs-rocksdb.sh} sets them from its
     * environment).
     *
     * @param records        input records ({@code bench.records}).
     * @param ids            distinct ids wanted ({@code bench.ids}).
     * @param partitions     partitions of the input ({@code bench.partitions}).
     * @param rounds         rounds ({@code bench.rounds}).
     * @param port           the broker's port; the controller takes the next ({@code bench.port}).
     * @param guarantees     the guarantees, in order ({@code bench.guarantees}).
     * @param apps           the applications, in the first round's order ({@code bench.apps}): rocksdb, ddf, and
     *                       ddf-words, ddf-blocks for ddf with another changelog format.
     * @param ddfArgs        ddf's filter options ({@code bench.ddf.args}; default {@link #withFilterPicked}).
     * @param ddfJar         ddf's application jar ({@code bench.ddf.jar}).
     * @param appJavaOptions JVM options of both applications ({@code bench.app.java.opts}).
     * @param rocksDbCaching whether the RocksDB store has Kafka Streams' record cache ({@code bench.rocksdb.caching}).
     * @param seed           the input's seed ({@code bench.seed}).
     * @param timeout        longest wait for one run's output ({@code bench.timeout.minutes}).
     * @param ddfArgsSource  where ddf's filter options come from.
     */
    record Settings(long records, long ids, int partitions, int rounds, int port, List<String> guarantees,
        List<String> apps, List<String> ddfArgs, String ddfJar, List<String> appJavaOptions, boolean rocksDbCaching,
        long seed, Duration timeout, String ddfArgsSource)
    {
        static Settings fromSystemProperties()
        {
            return new Settings(Long.getLong("bench.records", 2_000_000), Long.getLong("bench.ids", 1_400_000),
                Integer.getInteger("bench.partitions", 4), Integer.getInteger("bench.rounds", 2),
                Integer.getInteger("bench.port", 19000),
                words(System.getProperty("bench.guarantees", "exactly_once_v2,at_least_once").replace(',', ' ')),
                words(System.getProperty("bench.apps", "ddf,rocksdb").replace(',', ' ')),
                words(System.getProperty("bench.ddf.args", "")),
                System.getProperty("bench.ddf.jar", "kafka/target/ddf-kafka.jar"),
                words(System.getProperty("bench.app.java.opts", "")),
                Boolean.getBoolean("bench.rocksdb.caching"), Long.getLong("bench.seed", 42),
                Duration.ofMinutes(Long.getLong("bench.timeout.minutes", 30)), "given");
        }

        /**
         * @return ddf's filter options: as given, or what {@code ddf tune --changelog} picks for one partition's
         *         share of the input, in {@code bench.memory.bits} per partition (default: the power of two at or
         *         above 32 bits per distinct id of a partition), the command that gives it first.
         */
        Settings withFilterPicked()
        {
            if (!ddfArgs.isEmpty())
            {
                return this;
            }
            final long perPartition = (ids + partitions - 1) / partitions;
            final long memory = Long.getLong("bench.memory.bits", Long.highestOneBit(32 * perPartition - 1) << 1);
            final double alphabet = (double)BenchInput.alphabetFor(records, ids) / partitions;
            final Candidate pick = Tuner.tune(memory, Workload.uniform(records / partitions, alphabet),
                Objective.withChangelog(1, 1, Double.NaN, Double.NaN)).pick();
            final List<String> args = new ArrayList<>(List.of("--filter", pick.kind().cliName()));
            pick.parameters().forEach((name, value) -> args.addAll(List.of("--" + name, value.toString())));
            final String source = String.format(java.util.Locale.ROOT, "`bin/ddf tune --memory-bits %d " +
                "--stream-length %d --alphabet %.0f --changelog`, predicted FPR %.3g, FNR %.3g", memory,
                records / partitions, alphabet, pick.fpr(), pick.fnr());
            return new Settings(records, ids, partitions, rounds, port, guarantees, apps, List.copyOf(args), ddfJar,
                appJavaOptions, rocksDbCaching, seed, timeout, source);
        }

        private static List<String> words(final String s)
        {
            return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
        }

        String describe(final BenchInput input)
        {
            return String.format(java.util.Locale.ROOT, "input: %d records, %d distinct ids (uniform over %d), %d " +
                "partitions; %d rounds, alternated; ddf: %s (%s); RocksDB store%s; application JVM options: %s%n",
                input.records(), input.distinct(), input.alphabet(), partitions, rounds, String.join(" ", ddfArgs),
                ddfArgsSource,
                rocksDbCaching ? " with Kafka Streams' record cache" : " (no cache)",
                appJavaOptions.isEmpty() ? "none" : String.join(" ", appJavaOptions));
        }
    }
}
