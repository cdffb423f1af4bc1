package io.ddf.kafka.bench;

import io.ddf.engine.TimeWindow;
import io.ddf.kafka.app.RestoreReport;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * The windowed deduplication a Kafka Streams user writes without ddf, the baseline of {@code bench/kafka-window.sh}:
 * the design of Confluent's tutorial "How to filter duplicate events per-time window from a Kafka topic with Kafka
 * Streams" (confluentinc/tutorials, {@code deduplication-windowed/kstreams}), a processor over a logged
 * {@code Stores.persistentWindowStore} (RocksDB) whose retention and window size are both the dedup window W,
 * duplicates not retained, no caching (the builder's default). For each record with a key, at the task's stream time s
 * ({@code context.currentStreamTimeMs()}, as the tutorial uses): the key is a duplicate when the store holds it at
 * some time in a range before s ({@code fetch(key, from, s)}); a record judged new is forwarded and its key put at s.
 *
 * <p>Two places where the tutorial's own choices would judge differently from ddf's window (and both are options
 * here, for whoever wants the tutorial's behaviour):
 * <ul>
 *   <li>The range. The tutorial fetches [s − W/2, s + W − W/2]; with stream time nothing is ever put after s, so it
 *       remembers a key for W/2. This app fetches (s − W, s], so that a key is remembered for W, ddf's promise
 *       ({@code --half-window}: the tutorial's range).</li>
 *   <li>A duplicate. The tutorial puts the key again at s ("to prevent expiry"), so a key seen every W/2 is never
 *       forwarded again, and every duplicate costs a put and a changelog record. ddf does not extend an element's
 *       window on a DUPLICATE (Redis' {@code SET NX EX}); this app neither ({@code --refresh}: the tutorial's
 *       put).</li>
 * </ul>
 * Late and out-of-order records are judged at the stream time, as the tutorial and ddf's event time do: a record older
 * than s is a duplicate of a key put in (s − W, s], and a new one is put at s. Keys and values are bytes, copied
 * unchanged; state changes and restores are reported on stderr as {@code ddf kafka-dedup} reports them
 * ({@link RestoreReport}).
 *
 * <pre>
 * java -cp ... io.ddf.kafka.bench.WindowStoreDedupApp --bootstrap-server HOST:PORT --input IN --output OUT \
 *     --window 24h --application-id ID --state-dir DIR [--guarantee exactly_once_v2|at_least_once] [--refresh] \
 *     [--half-window] [--config K=V ...]
 * </pre>
 */
public final class WindowStoreDedupApp
{
    /** The store's name, so its changelog is {@code <application id>-seen-window-changelog}. */
    public static final String STORE = "seen-window";

    private WindowStoreDedupApp()
    {
    }

    /**
     * @param input      the topic to read.
     * @param output     the topic to write.
     * @param window     W: the store's retention and window size, and how long a key is remembered.
     * @param refresh    whether a duplicate puts its key again (the tutorial's choice).
     * @param halfWindow whether to fetch the tutorial's range (a key remembered W/2) instead of (s − W, s].
     * @return source, dedup processor with its store, sink.
     */
    public static Topology topology(final String input, final String output, final Duration window,
        final boolean refresh, final boolean halfWindow)
    {
        final StoreBuilder<WindowStore<Bytes, Long>> store = Stores.windowStoreBuilder(
            Stores.persistentWindowStore(STORE, window, window, false), Serdes.Bytes(), Serdes.Long());
        final Topology topology = new Topology();
        topology.addSource("in", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(), input);
        topology.addProcessor("dedup", () -> new DropSeenInWindow(window.toMillis(), refresh, halfWindow), "in");
        topology.addStateStore(store, "dedup");
        topology.addSink("out", output, Serdes.Bytes().serializer(), Serdes.ByteArray().serializer(), "dedup");
        return topology;
    }

    /** Forwards a record whose key the window store lacks in the range, and puts the key at the stream time. */
    static final class DropSeenInWindow implements Processor<Bytes, byte[], Bytes, byte[]>
    {
        private final boolean refresh;
        private final long before;
        private final long after;
        private ProcessorContext<Bytes, byte[]> context;
        private WindowStore<Bytes, Long> seen;

        DropSeenInWindow(final long window, final boolean refresh, final boolean halfWindow)
        {
            this.refresh = refresh;
            this.before = halfWindow ? window / 2 : window - 1;
            this.after = halfWindow ? window - window / 2 : 0;
        }

        @Override
        public void init(final ProcessorContext<Bytes, byte[]> context)
        {
            this.context = context;
            this.seen = context.getStateStore(STORE);
        }

        @Override
        public void process(final Record<Bytes, byte[]> record)
        {
            if (record.key() == null)
            {
                context.forward(record);
                return;
            }
            final long now = context.currentStreamTimeMs();
            final boolean duplicate;
            try (WindowStoreIterator<Long> found = seen.fetch(record.key(), Math.max(0, now - before), now + after))
            {
                duplicate = found.hasNext();
            }
            if (!duplicate)
            {
                seen.put(record.key(), now, now);
                context.forward(record);
            }
            else if (refresh)
            {
                seen.put(record.key(), now, now);
            }
        }
    }

    /**
     * @param args see the class comment.
     * @throws InterruptedException when interrupted while running.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null)
        {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        final Properties props = new Properties();
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        String input = null;
        String output = null;
        Duration window = null;
        boolean refresh = false;
        boolean halfWindow = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--bootstrap-server" -> props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[++i]);
                case "--input" -> input = args[++i];
                case "--output" -> output = args[++i];
                case "--window" -> window = TimeWindow.parseDuration(args[++i]);
                case "--application-id" -> props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[++i]);
                case "--state-dir" -> props.put(StreamsConfig.STATE_DIR_CONFIG, args[++i]);
                case "--guarantee" -> props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, args[++i]);
                case "--refresh" -> refresh = true;
                case "--half-window" -> halfWindow = true;
                case "--config" ->
                {
                    final String[] kv = args[++i].split("=", 2);
                    props.put(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (input == null || output == null || window == null)
        {
            throw new IllegalArgumentException("give --input, --output and --window");
        }
        final KafkaStreams streams = new KafkaStreams(topology(input, output, window, refresh, halfWindow), props);
        final RestoreReport report = new RestoreReport(System.err, "window-store-dedup:");
        final CountDownLatch stopped = new CountDownLatch(1);
        streams.setGlobalStateRestoreListener(report);
        streams.setStateListener((now, before) ->
        {
            report.stateChanged(now, before);
            if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR)
            {
                stopped.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> streams.close(Duration.ofSeconds(60)),
            "window-store-dedup-shutdown"));
        System.err.println("window-store-dedup: " + input + " -> " + output + ", window " + TimeWindow.format(window) +
            ", " + props.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG) + (refresh ? ", refresh on duplicates" : "") +
            (halfWindow ? ", the tutorial's half-window range" : ""));
        streams.start();
        stopped.await();
    }
}
