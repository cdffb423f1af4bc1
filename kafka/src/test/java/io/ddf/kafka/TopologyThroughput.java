package io.ddf.kafka;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Throughput of the dedup topology through TopologyTestDriver, which commits (so logs, and checkpoints) after every
 * record, beside the usual Kafka Streams dedup (get then put on a logged key-value store, RocksDB or in-memory) in
 * the same run: {@code java -cp ... io.ddf.kafka.TopologyThroughput [records] [memory-bits] [guarantee] [dir]}.
 * Prints records/s and changelog bytes (key and value) per input record. Run by hand; figures in kafka/README.md.
 */
public final class TopologyThroughput
{
    private TopologyThroughput()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int records = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        final long memoryBits = args.length > 1 ? Long.parseLong(args[1]) : 1L << 20;
        final String guarantee = args.length > 2 ? args[2] : StreamsConfig.AT_LEAST_ONCE;
        final Path dir = Files.createTempDirectory(args.length > 3 ? Path.of(args[3]) : Path.of("/tmp"), "ddf-ttd");
        final Random random = new Random(42);
        final List<TestRecord<String, String>> input = new ArrayList<>(records);
        for (int i = 0; i < records; i++)
        {
            // Half the stream repeats earlier elements.
            input.add(new TestRecord<>("click-" + random.nextInt(records / 2), "v"));
        }
        final FilterSpec spec = FilterSpec.of("qht").with("memory-bits", memoryBits);
        final String[] variants = {"ddf", "ddf-no-changelog", "rocksdb", "in-memory"};
        int run = 0;
        for (int round = 0; round < 2; round++)
        {
            for (final String variant : variants)
            {
                final Path stateDir = dir.resolve("r" + run++);
                try (TopologyTestDriver driver = new TopologyTestDriver(topology(variant, spec),
                    DedupTopologyTest.props(stateDir, guarantee)))
                {
                    final TestInputTopic<String, String> topic = driver.createInputTopic("in", new StringSerializer(),
                        new StringSerializer());
                    final TestOutputTopic<byte[], byte[]> changelog = driver.createOutputTopic(
                        DedupTopologyTest.APP + "-" + Dedup.DEFAULT_STORE_NAME + "-changelog",
                        new ByteArrayDeserializer(), new ByteArrayDeserializer());
                    final long start = System.nanoTime();
                    long logBytes = 0;
                    for (int i = 0; i < records; i++)
                    {
                        topic.pipeInput(input.get(i));
                        if ((i & 1023) == 1023)
                        {
                            logBytes += bytes(changelog);
                        }
                    }
                    final double seconds = (System.nanoTime() - start) / 1e9;
                    logBytes += bytes(changelog);
                    if (round == 1)
                    {
                        System.out.printf("%-17s %d records, %s: %8.0f records/s, changelog %.1f key+value bytes " +
                            "per input record%n", variant, records, guarantee, records / seconds, (double)logBytes / records);
                    }
                }
            }
        }
    }

    private static long bytes(final TestOutputTopic<byte[], byte[]> changelog)
    {
        long bytes = 0;
        for (final TestRecord<byte[], byte[]> r : changelog.readRecordsToList())
        {
            bytes += r.key().length + (r.value() == null ? 0 : r.value().length);
        }
        return bytes;
    }

    private static Topology topology(final String variant, final FilterSpec spec)
    {
        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<String, String> in = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        final KStream<String, String> unique;
        switch (variant)
        {
            case "ddf":
                unique = Dedup.dropDuplicates(in, KeyBytes.recordKey(new StringSerializer(), "in"), spec);
                break;
            case "ddf-no-changelog":
                unique = Dedup.by(KeyBytes.<String, String>recordKey(new StringSerializer(), "in"), spec)
                    .withLoggingDisabled().dropDuplicates(in);
                break;
            default:
                final KeyValueBytesStoreSupplier supplier = variant.equals("rocksdb") ?
                    Stores.persistentKeyValueStore(Dedup.DEFAULT_STORE_NAME) :
                    Stores.inMemoryKeyValueStore(Dedup.DEFAULT_STORE_NAME);
                unique = in.process(new SeenBefore(Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(),
                    Serdes.ByteArray()).withCachingDisabled()));
                break;
        }
        unique.to("out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** The usual exact dedup: forward a record whose key the store has not seen, and remember the key. */
    private static final class SeenBefore implements ProcessorSupplier<String, String, String, String>
    {
        private static final byte[] PRESENT = new byte[0];
        private final StoreBuilder<KeyValueStore<Bytes, byte[]>> store;

        SeenBefore(final StoreBuilder<KeyValueStore<Bytes, byte[]>> store)
        {
            this.store = store;
        }

        @Override
        public Processor<String, String, String, String> get()
        {
            return new Processor<>()
            {
                private ProcessorContext<String, String> context;
                private KeyValueStore<Bytes, byte[]> seen;

                @Override
                public void init(final ProcessorContext<String, String> context)
                {
                    this.context = context;
                    this.seen = context.getStateStore(Dedup.DEFAULT_STORE_NAME);
                }

                @Override
                public void process(final Record<String, String> record)
                {
                    final Bytes key = Bytes.wrap(record.key().getBytes(StandardCharsets.UTF_8));
                    if (seen.get(key) == null)
                    {
                        seen.put(key, PRESENT);
                        context.forward(record);
                    }
                }
            };
        }

        @Override
        public Set<StoreBuilder<?>> stores()
        {
            return Collections.singleton(store);
        }
    }
}
