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
                final BenchInput input = new BenchInput(settings.records(), settings.ids(), settings.seed(),
                    settings.windowing() == null ? null : settings.windowing().times());
                final long produceStart = System.nanoTime();
                input.produce(cluster.bootstrapServers(), "in", settings.partitions());
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
        createTopic(output);
        final Path state = work.resolve(id);
        final double seconds;
        final double cpuMicrosPerRecord;
        final long rss;
        final long missing;
        final long duplicated;
        long passed = -1;
        long droppedAfterWindow = -1;
        final Windowing windowing = settings.windowing();
        try (ChildApp child = new ChildApp(command(app, id, output, guarantee, state), work.resolve(id + ".log"));
             OutputTally tally = windowing != null ? null : new OutputTally(bootstrap, output, settings.partitions());
             WindowTally windowTally = windowing == null ? null : new WindowTally(bootstrap, output, settings.partitions()))
        {
            child.sampleCpu(Duration.ofMillis(100));
            final ChildApp.Line running = child.await(l -> l.contains(" RUNNING"), Duration.ofMinutes(2));
            final long expected = input.distinct();
            final long lastArrival;
            if (windowing != null)
            {
                if (!windowTally.readUntilTheEnd(settings.timeout()))
                {
                    throw new IllegalStateException(id + ": no end record from every partition after " +
                        settings.timeout() + "; log:\n" + child.tail());
                }
                lastArrival = windowTally.lastArrivalNanos();
            }
            else
            {
                if (!tally.readUntil(expected, expected - expected / 100, Duration.ofSeconds(3), settings.timeout()))
                {
                    throw new IllegalStateException(id + ": output incomplete after " + settings.timeout() + ": " +
                        tally.distinct() + " of " + expected + " ids; log:\n" + child.tail());
                }
                lastArrival = tally.lastArrivalNanos();
            }
            seconds = (lastArrival - running.nanos()) / 1e9;
            // the application's CPU time (all its threads) over the same span, to within a sample (100 ms): what
            // the load of other processes moves less than records/s
            final long cpuStart = child.cpuNanosAt(running.nanos());
            final long cpuEnd = child.cpuNanosAt(lastArrival);
            cpuMicrosPerRecord = cpuStart < 0 || cpuEnd < 0 ? Double.NaN : (cpuEnd - cpuStart) / 1e3 / input.records();
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
            child.stop();
            if (windowing != null)
            {
                final WindowTally.Check check = windowTally.check(input, settings.partitions(),
                    windowing.window().toMillis(), windowing.forgotten());
                System.err.println("bench: " + id + ": " + check);
                missing = check.missing();
                duplicated = check.doubledInside();
                passed = check.passed();
                droppedAfterWindow = check.droppedAfterWindow();
            }
            else
            {
                missing = expected - tally.distinct();
                duplicated = tally.duplicated();
            }
        }
        final long stateBytes = treeBytes(state);
        final String changelog = id + "-" + (app.startsWith("ddf") ? "ddf-dedup" : app.startsWith("windowstore") ?
            WindowStoreDedupApp.STORE : RocksDbDedupApp.STORE) + "-changelog";
        final long logBytes = logBytes(changelog);
        final long[] counted = countRecords(changelog);
        final Path restoreState = work.resolve(id + "-restore");
        final long restoreMillis;
        final long restored;
        final long restoreRss;
        final long restoreCpu;
        try (ChildApp child = new ChildApp(command(app, id, output, guarantee, restoreState), work.resolve(id + "-restore.log")))
        {
            final Matcher m = RUNNING.matcher(child.await(l -> RUNNING.matcher(l).find(), Duration.ofMinutes(10)).text());
            if (!m.find())
            {
                throw new IllegalStateException("no restore figures in " + child.tail());
            }
            restoreCpu = child.cpuNanos();
            restored = Long.parseLong(m.group(1));
            restoreMillis = Long.parseLong(m.group(2));
            restoreRss = child.peakRssBytes();
            child.stop();
        }
        admin.deleteTopics(List.of(output, changelog)).all().get();
        deleteTree(state);
        deleteTree(restoreState);
        return new RunResult(app, guarantee, round, seconds, input.records() / seconds, cpuMicrosPerRecord, logBytes,
            counted[0], counted[1], rss, stateBytes, restoreMillis, restored, restoreRss, missing, duplicated, passed,
            droppedAfterWindow, restoreCpu < 0 ? -1 : restoreCpu / 1_000_000);
    }

    /** Creates a topic; one that exists already is the admin client's retry of a request that got through. */
    private void createTopic(final String topic) throws InterruptedException
    {
        try
        {
            admin.createTopics(List.of(new NewTopic(topic, settings.partitions(), (short)1))).all().get();
        }
        catch (final java.util.concurrent.ExecutionException e)
        {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException))
            {
                throw new IllegalStateException("cannot create " + topic, e.getCause());
            }
        }
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
        else if (app.startsWith("windowstore"))
        {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), WindowStoreDedupApp.class.getName(),
                "--window", io.ddf.engine.TimeWindow.format(settings.windowing().window())));
            if (app.equals("windowstore-refresh"))
            {
                command.add("--refresh"); // the tutorial's put of a duplicate
            }
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
        else if (settings.rocksDbCaching() && app.equals("rocksdb"))
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
     * @param windowing      the window bench's settings, or null for the bench without a window.
     */
    record Settings(long records, long ids, int partitions, int rounds, int port, List<String> guarantees,
        List<String> apps, List<String> ddfArgs, String ddfJar, List<String> appJavaOptions, boolean rocksDbCaching,
        long seed, Duration timeout, String ddfArgsSource, Windowing windowing)
    {
        static Settings fromSystemProperties()
        {
            final Windowing windowing = Windowing.fromSystemProperties();
            return new Settings(Long.getLong("bench.records", 2_000_000), Long.getLong("bench.ids", 1_400_000),
                Integer.getInteger("bench.partitions", 4), Integer.getInteger("bench.rounds", 2),
                Integer.getInteger("bench.port", 19000),
                words(System.getProperty("bench.guarantees", "exactly_once_v2,at_least_once").replace(',', ' ')),
                words(System.getProperty("bench.apps", windowing == null ? "ddf,rocksdb" : "ddf,windowstore")
                    .replace(',', ' ')),
                words(System.getProperty("bench.ddf.args", "")),
                System.getProperty("bench.ddf.jar", "kafka/target/ddf-kafka.jar"),
                words(System.getProperty("bench.app.java.opts", "")),
                Boolean.getBoolean("bench.rocksdb.caching"), Long.getLong("bench.seed", 42),
                Duration.ofMinutes(Long.getLong("bench.timeout.minutes", 30)), "given", windowing);
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
            if (windowing != null)
            {
                final long capacity = windowing.capacity(records, partitions);
                final List<String> args = List.of("--window", io.ddf.engine.TimeWindow.format(windowing.window()),
                    "--subfilters", Integer.toString(windowing.slices()), "--capacity", Long.toString(capacity),
                    "--target-fpr", Double.toString(windowing.fpr()));
                final String source = String.format(java.util.Locale.ROOT, "capacity: the records of a window in a " +
                    "partition (%d / %d × %s / %s) + 10 %%, an upper bound on the new ids a window brings",
                    records, partitions, io.ddf.engine.TimeWindow.format(windowing.window()),
                    io.ddf.engine.TimeWindow.format(Duration.ofMillis(windowing.span())));
                return new Settings(records, ids, partitions, rounds, port, guarantees, apps, args, ddfJar,
                    appJavaOptions, rocksDbCaching, seed, timeout, source, windowing);
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
                appJavaOptions, rocksDbCaching, seed, timeout, source, null);
        }

        private static List<String> words(final String s)
        {
            return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
        }

        String describe(final BenchInput input)
        {
            if (windowing != null)
            {
                return String.format(java.util.Locale.ROOT, "input: %d records, %d distinct ids (uniform over %d), %d " +
                    "partitions, timestamps over %s (%.1f windows), %.1f %% of the records late by up to %s, then an " +
                    "end record per partition; %d rounds, alternated; window W = %s; ddf: %s (%s), forgets by " +
                    "W + W/%d = %s; window store: Confluent's tutorial's design, remembers exactly W (its changelog " +
                    "is logged, no cache); application JVM options: %s%n",
                    input.records(), input.distinct(), input.alphabet(), partitions,
                    io.ddf.engine.TimeWindow.format(Duration.ofMillis(windowing.span())),
                    (double)windowing.span() / windowing.window().toMillis(), 100 * windowing.lateFraction(),
                    io.ddf.engine.TimeWindow.format(Duration.ofMillis(windowing.lateMax())), rounds,
                    io.ddf.engine.TimeWindow.format(windowing.window()), String.join(" ", ddfArgs), ddfArgsSource,
                    windowing.slices(), io.ddf.engine.TimeWindow.format(Duration.ofMillis(windowing.forgotten())),
                    appJavaOptions.isEmpty() ? "none" : String.join(" ", appJavaOptions));
            }
            return String.format(java.util.Locale.ROOT, "input: %d records, %d distinct ids (uniform over %d), %d " +
                "partitions; %d rounds, alternated; ddf: %s (%s); RocksDB store%s; application JVM options: %s%n",
                input.records(), input.distinct(), input.alphabet(), partitions, rounds, String.join(" ", ddfArgs),
                ddfArgsSource,
                rocksDbCaching ? " with Kafka Streams' record cache" : " (no cache)",
                appJavaOptions.isEmpty() ? "none" : String.join(" ", appJavaOptions));
        }
    }

    /**
     * The window bench's settings ({@code bench/kafka-window.sh}).
     *
     * @param window       W ({@code bench.window}, e.g. 24h).
     * @param span         the span of the records' timestamps, ms ({@code bench.window.span}, default 4 W).
     * @param slices       ddf's slices L ({@code bench.window.slices}, default 4).
     * @param fpr          ddf's error rate ({@code bench.window.fpr}, default 10^-9).
     * @param lateFraction the fraction of records late ({@code bench.window.late}, default 0.01).
     * @param lateMax      how late at most, ms ({@code bench.window.late.max}, default W / 24).
     * @param start        the first record's timestamp: the bench's start, so that the timestamps run from now into
     *                     the future and the broker's retention by time (7 days for the input, the window store's
     *                     retention plus a day for its changelog) deletes nothing while the bench runs.
     */
    record Windowing(Duration window, long span, int slices, double fpr, double lateFraction, long lateMax, long start)
    {
        static Windowing fromSystemProperties()
        {
            final String text = System.getProperty("bench.window", "");
            if (text.isBlank())
            {
                return null;
            }
            final Duration window = io.ddf.engine.TimeWindow.parseDuration(text);
            final String span = System.getProperty("bench.window.span", "");
            final String lateMax = System.getProperty("bench.window.late.max", "");
            return new Windowing(window, span.isBlank() ? 4 * window.toMillis() :
                io.ddf.engine.TimeWindow.parseDuration(span).toMillis(), Integer.getInteger("bench.window.slices", 4),
                Double.parseDouble(System.getProperty("bench.window.fpr", "1e-9")),
                Double.parseDouble(System.getProperty("bench.window.late", "0.01")),
                lateMax.isBlank() ? window.toMillis() / 24 : io.ddf.engine.TimeWindow.parseDuration(lateMax).toMillis(),
                System.currentTimeMillis());
        }

        BenchInput.Times times()
        {
            return new BenchInput.Times(start, span, lateFraction, lateMax);
        }

        /** @return W + W/L: when ddf has forgotten an id at the latest. */
        long forgotten()
        {
            return window.toMillis() + window.toMillis() / slices;
        }

        /**
         * @return ddf's capacity: the records of a window in one partition, plus 10 % (the hash's split and the late
         *         records), which bounds the new ids a window brings.
         */
        long capacity(final long records, final int partitions)
        {
            return (long)Math.ceil(1.1 * records * ((double)window.toMillis() / span) / partitions);
        }
    }
}
