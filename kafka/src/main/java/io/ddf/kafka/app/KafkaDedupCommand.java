package io.ddf.kafka.app;

import io.ddf.ingest.FilterOptions;
import io.ddf.kafka.ChangelogFormat;
import io.ddf.kafka.Dedup;
import io.ddf.kafka.FilterSpec;
import io.ddf.kafka.KeyBytes;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code ddf kafka-dedup}: the dedup topology against a real cluster. Reads the input topic as bytes, judges each
 * record by its dedup key through one ddf filter per input partition ({@link Dedup}), and writes the records judged
 * UNSEEN (or, with {@code --mark}, every record with a {@code ddf-verdict} header) to the output topic, keys and
 * values unchanged. SIGTERM (or SIGINT) closes Kafka Streams cleanly: it commits, checkpoints and closes the filter
 * files, so a restart restores nothing.
 *
 * <p>{@code --window 24h}: each task's filter is a fifo-bloom with a window of time on event time, the record
 * timestamps ({@link FilterSpec#window}; late and out-of-order records are judged at the stream time, docs/kafka.md).
 *
 * <p>Reports on stderr, one line each: state changes, restores ({@code restored N changelog records of ...}), and
 * errors. Exit status: 143 after SIGTERM (the JVM's, once the shutdown hook has closed Kafka Streams), 1 when Kafka
 * Streams failed, 2 for bad usage.
 */
@Command(name = "ddf kafka-dedup", mixinStandardHelpOptions = true, sortOptions = false,
    versionProvider = io.ddf.ingest.VersionProvider.class,
    description = "Deduplicate a Kafka topic into another with Kafka Streams, one ddf filter per input partition.")
public final class KafkaDedupCommand implements Callable<Integer>
{
    /** Exit status for bad usage. */
    static final int USAGE_ERROR = 2;
    /** Exit status when Kafka Streams failed. */
    static final int RUNTIME_ERROR = 1;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT",
        description = "Kafka bootstrap server(s), comma-separated.")
    private String bootstrap;

    @Option(names = "--input", required = true, paramLabel = "TOPIC", description = "Topic to read.")
    private String input;

    @Option(names = "--output", required = true, paramLabel = "TOPIC", description = "Topic to write.")
    private String output;

    @Option(names = "--key", paramLabel = "key|value|PATH", defaultValue = "key",
        description = "Dedup key: the record key (default; the input must be partitioned by it), the whole value, " +
            "or a JSON path into the value ($.id, $.user.ids[0], or a JSON Pointer /id). value and paths " +
            "repartition by the key through an internal topic.")
    private String key;

    @Option(names = "--mark", description = "Write every record with a ddf-verdict header (UNSEEN or DUPLICATE) " +
        "instead of dropping duplicates.")
    private boolean mark;

    @Option(names = "--application-id", paramLabel = "ID", defaultValue = "ddf-kafka-dedup",
        description = "Kafka Streams application id: instances with the same id share the work (default: ${DEFAULT-VALUE}).")
    private String applicationId;

    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "Where the filter files live, one per store per task (default: Kafka Streams' own, under the temp dir).")
    private Path stateDir;

    @Option(names = "--guarantee", paramLabel = "exactly_once_v2|at_least_once", defaultValue = StreamsConfig.EXACTLY_ONCE_V2,
        description = "Processing guarantee (default: ${DEFAULT-VALUE}).")
    private String guarantee;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Stream threads (default: 1).")
    private int threads;

    @Option(names = "--changelog-format", paramLabel = "auto|hashes|calls|blocks|words", defaultValue = "auto",
        description = "What the changelog records: hashes (the new elements' 64-bit hashes, a snapshot now and then; " +
            "bloom, qht and sqf), calls (every record's hash and time, a snapshot now and then; --window TIME), blocks " +
            "(changed 64-byte blocks), words (changed words); auto (default): hashes where the kind allows, calls " +
            "with --window TIME, else words.")
    private String changelogFormat;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "Any other Kafka Streams, consumer or " +
        "producer setting; repeatable.")
    private Map<String, String> config = new LinkedHashMap<>();

    @Mixin
    private FilterOptions filter;

    private final PrintStream err;

    /** @param err where reports go. */
    public KafkaDedupCommand(final PrintStream err)
    {
        this.err = err;
    }

    /**
     * @param args the command line, without {@code kafka-dedup}.
     */
    public static void main(final String[] args)
    {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null)
        {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        System.exit(commandLine(System.err).execute(args));
    }

    /**
     * @param err where reports and errors go.
     * @return the configured command line.
     */
    static CommandLine commandLine(final PrintStream err)
    {
        final KafkaDedupCommand command = new KafkaDedupCommand(err);
        final CommandLine line = new CommandLine(command);
        FilterOptions.addKindOptions(line.getCommandSpec(), command.filter);
        line.getCommandSpec().usageMessage().footer(FilterOptions.kindsFooter().toArray(new String[0]));
        line.setUsageHelpWidth(100);
        line.setUsageHelpLongOptionsMaxWidth(30);
        line.setParameterExceptionHandler((ex, args) ->
        {
            err.println("ddf: " + oneLine(ex.getMessage()) + " (see 'ddf kafka-dedup --help')");
            return USAGE_ERROR;
        });
        line.setExecutionExceptionHandler((ex, cmd, parsed) ->
        {
            err.println("ddf: " + oneLine(ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return ex instanceof IllegalArgumentException ? USAGE_ERROR : RUNTIME_ERROR;
        });
        return line;
    }

    private static String oneLine(final String message)
    {
        return message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }

    /**
     * @return the filter spec the options describe.
     * @throws IllegalArgumentException for options that have no meaning here, or an invalid filter.
     */
    FilterSpec spec()
    {
        if (filter.file() != null)
        {
            throw new IllegalArgumentException("--file has no meaning for kafka-dedup: each task keeps its filter " +
                "file in --state-dir");
        }
        if (filter.keyed())
        {
            throw new IllegalArgumentException("--keyed is not offered by kafka-dedup: the secret key would have to " +
                "travel through the changelog topic for another instance to restore the filter");
        }
        if (filter.kind() == null)
        {
            throw new IllegalArgumentException("give --filter KIND, or --window with a time (e.g. 24h), which means " +
                "fifo-bloom");
        }
        if (filter.timeWindow() && filter.kind() != io.ddf.engine.FilterKind.FIFO_BLOOM)
        {
            throw new IllegalArgumentException("--window with a time is fifo-bloom's (--filter fifo-bloom, or no " +
                "--filter); " + filter.kind().cliName() + " takes --window N, a number of elements");
        }
        FilterSpec spec = FilterSpec.of(filter.kind()).with(filter.kindParameters());
        if (filter.seed() != null)
        {
            spec = spec.seed(filter.seed());
        }
        return spec;
    }

    /**
     * @param spec the filter each task holds.
     * @return the topology: input, dedup by the chosen key, output.
     */
    Topology topology(final FilterSpec spec)
    {
        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<byte[], byte[]> in = builder.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()));
        final KeyBytes<byte[], byte[]> keyBytes;
        switch (key)
        {
            case "key":
                keyBytes = KeyBytes.recordKey(Serdes.ByteArray().serializer(), input);
                break;
            case "value":
                keyBytes = (k, v) -> v;
                break;
            default:
                keyBytes = new JsonPathKey(key);
                break;
        }
        final Dedup<byte[], byte[]> dedup = Dedup.by(keyBytes, spec).repartitionWith(Serdes.ByteArray(), Serdes.ByteArray())
            .changelogFormat(format());
        (mark ? dedup.markVerdicts(in) : dedup.dropDuplicates(in))
            .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return builder.build();
    }

    private ChangelogFormat format()
    {
        for (final ChangelogFormat f : ChangelogFormat.values())
        {
            if (f.name().equalsIgnoreCase(changelogFormat))
            {
                return f;
            }
        }
        throw new IllegalArgumentException("--changelog-format must be auto, hashes, calls, blocks or words, not " +
            changelogFormat);
    }

    /** @return the Kafka Streams configuration. */
    Properties properties()
    {
        if (!StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee) && !StreamsConfig.AT_LEAST_ONCE.equals(guarantee))
        {
            throw new IllegalArgumentException("--guarantee must be exactly_once_v2 or at_least_once, not " + guarantee);
        }
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        if (stateDir != null)
        {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        props.putAll(config);
        return props;
    }

    @Override
    public Integer call() throws InterruptedException
    {
        final FilterSpec spec = spec();
        final KafkaStreams streams = new KafkaStreams(topology(spec), properties());
        final CountDownLatch stopped = new CountDownLatch(1);
        // counted down by the state listener alone, when it has seen NOT_RUNNING or ERROR
        final CountDownLatch ended = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final RestoreReport report = new RestoreReport(err, "ddf kafka-dedup:");
        streams.setGlobalStateRestoreListener(report);
        streams.setStateListener((now, before) ->
        {
            report.stateChanged(now, before);
            if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR)
            {
                stopped.countDown();
                ended.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(e ->
        {
            failure.compareAndSet(null, e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        final Thread hook = new Thread(() ->
        {
            // SIGTERM/SIGINT: commit, checkpoint and close the filter files, so a restart restores nothing.
            if (streams.close(Duration.ofSeconds(60)))
            {
                // close() returns once the state is NOT_RUNNING, but Kafka Streams calls the state listener after
                // that, outside its lock: wait for the listener's line so the log says the close completed
                // (a JVM exiting first lost it, seen in KafkaDedupBrokerIT on a loaded machine).
                awaitQuietly(ended, Duration.ofSeconds(5));
            }
            stopped.countDown();
        }, "ddf-kafka-dedup-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        final String window = spec.hasTimeWindow() ? ", a window of " + io.ddf.engine.TimeWindow.format(
            java.time.Duration.ofMillis(spec.params().get("window-ms").longValue())) + " on the record timestamps" : "";
        err.println("ddf kafka-dedup: " + input + " -> " + output + ", key " + key + ", filter " + spec + window + ", " +
            guarantee +
            (mark ? ", marking" : ", dropping duplicates") + ", changelog " + changelogFormat.toLowerCase(java.util.Locale.ROOT));
        streams.start();
        stopped.await();
        if (failure.get() != null)
        {
            streams.close(Duration.ofSeconds(10));
            final Throwable cause = failure.get();
            err.println("ddf: kafka streams failed: " + oneLine(String.valueOf(cause.getCause() != null ? cause.getCause() : cause)));
            return RUNTIME_ERROR;
        }
        return 0;
    }

    private static void awaitQuietly(final CountDownLatch latch, final Duration timeout)
    {
        try
        {
            latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
