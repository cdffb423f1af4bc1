package io.ddf.kafka.bench;

import io.ddf.kafka.app.RestoreReport;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * The deduplication a Kafka Streams user writes without ddf, the baseline of {@code bench/kafka-vs-rocksdb.sh}: a
 * processor over a logged {@code Stores.persistentKeyValueStore} (RocksDB, Kafka Streams' defaults, no caching, as in
 * Kafka Streams' deduplication tutorials) that forwards a record only when its key is absent from the store, and
 * then puts the key with the record's timestamp. Keys and values are bytes, copied unchanged. It reports its state
 * changes and restores on stderr in the same lines as {@code ddf kafka-dedup} ({@link RestoreReport}), so that the
 * bench reads both alike.
 *
 * <pre>
 * java -cp ... io.ddf.kafka.bench.RocksDbDedupApp --bootstrap-server HOST:PORT --input IN --output OUT \
 *     --application-id ID --state-dir DIR [--guarantee exactly_once_v2|at_least_once] [--caching] [--config K=V ...]
 * </pre>
 */
public final class RocksDbDedupApp
{
    /** The store's name, so its changelog is {@code <application id>-seen-changelog}. */
    public static final String STORE = "seen";

    private RocksDbDedupApp()
    {
    }

    /**
     * @param input   the topic to read.
     * @param output  the topic to write.
     * @param caching whether the store has Kafka Streams' record cache in front of it.
     * @return source, dedup processor with its store, sink.
     */
    public static Topology topology(final String input, final String output, final boolean caching)
    {
        final StoreBuilder<KeyValueStore<Bytes, byte[]>> store = Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), Serdes.ByteArray());
        final Topology topology = new Topology();
        topology.addSource("in", Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer(), input);
        topology.addProcessor("dedup", DropSeen::new, "in");
        topology.addStateStore(caching ? store.withCachingEnabled() : store, "dedup");
        topology.addSink("out", output, Serdes.Bytes().serializer(), Serdes.ByteArray().serializer(), "dedup");
        return topology;
    }

    /** Forwards a record whose key the store lacks, and records the key. */
    static final class DropSeen implements Processor<Bytes, byte[], Bytes, byte[]>
    {
        private ProcessorContext<Bytes, byte[]> context;
        private KeyValueStore<Bytes, byte[]> seen;

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
            if (seen.get(record.key()) == null)
            {
                seen.put(record.key(), ByteBuffer.allocate(Long.BYTES).putLong(record.timestamp()).array());
                context.forward(record);
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
        boolean caching = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--bootstrap-server" -> props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[++i]);
                case "--input" -> input = args[++i];
                case "--output" -> output = args[++i];
                case "--application-id" -> props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[++i]);
                case "--state-dir" -> props.put(StreamsConfig.STATE_DIR_CONFIG, args[++i]);
                case "--guarantee" -> props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, args[++i]);
                case "--caching" -> caching = true;
                case "--config" ->
                {
                    final String[] kv = args[++i].split("=", 2);
                    props.put(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (input == null || output == null)
        {
            throw new IllegalArgumentException("give --input and --output");
        }
        final KafkaStreams streams = new KafkaStreams(topology(input, output, caching), props);
        final RestoreReport report = new RestoreReport(System.err, "rocksdb-dedup:");
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
        Runtime.getRuntime().addShutdownHook(new Thread(() -> streams.close(Duration.ofSeconds(60)), "rocksdb-dedup-shutdown"));
        System.err.println("rocksdb-dedup: " + input + " -> " + output + ", " +
            props.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG) + (caching ? ", caching" : ""));
        streams.start();
        stopped.await();
    }
}
