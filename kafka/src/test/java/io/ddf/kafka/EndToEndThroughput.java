package io.ddf.kafka;

import kafka.testkit.KafkaClusterTestKit;
import kafka.testkit.TestKitNodes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * End-to-end throughput of the dedup topology on a one-node KRaft broker in this JVM (Kafka's test kit): N records
 * on a 4-partition topic (half of them copies of earlier ones), produced before the application starts; time from
 * start until its output holds every UNSEEN record (read committed), then the changelog's size, as records, key and
 * value bytes and the broker's log bytes, per input record. One stream thread per run.
 * {@code java -cp ... io.ddf.kafka.EndToEndThroughput [records] [memory-bits] [guarantee...]}.
 */
public final class EndToEndThroughput
{
    private EndToEndThroughput()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final long memoryBits = args.length > 1 ? Long.parseLong(args[1]) : 1L << 24;
        final List<String> guarantees = args.length > 2 ? List.of(args).subList(2, args.length) :
            List.of(StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2);
        final KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
            .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("offsets.topic.num.partitions", "4")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("transaction.state.log.num.partitions", "4")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .build();
        try
        {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            final Properties adminProps = new Properties();
            adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            try (Admin admin = Admin.create(adminProps))
            {
                admin.createTopics(List.of(new NewTopic("in", 4, (short)1))).all().get();
                final Random random = new Random(42);
                final Properties producerProps = new Properties();
                producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
                producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 20);
                producerProps.put(ProducerConfig.BATCH_SIZE_CONFIG, 1 << 18);
                final java.util.Set<String> distinct = new java.util.HashSet<>();
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps,
                    new ByteArraySerializer(), new ByteArraySerializer()))
                {
                    for (int i = 0; i < records; i++)
                    {
                        final String key = "click-" + random.nextInt(records / 2);
                        distinct.add(key);
                        producer.send(new ProducerRecord<>("in", key.getBytes(StandardCharsets.UTF_8),
                            ("{\"seq\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
                    }
                }
                for (final String guarantee : guarantees)
                {
                    run(cluster, admin, guarantee, records, distinct.size(), memoryBits);
                }
            }
        }
        finally
        {
            cluster.close();
        }
    }

    private static void run(final KafkaClusterTestKit cluster, final Admin admin, final String guarantee,
        final int records, final int unique, final long memoryBits) throws Exception
    {
        final String app = "e2e-" + guarantee.replace('_', '-');
        final String out = app + "-out";
        admin.createTopics(List.of(new NewTopic(out, 4, (short)1))).all().get();
        final StreamsBuilder builder = new StreamsBuilder();
        final KStream<byte[], byte[]> in = builder.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()));
        Dedup.dropDuplicates(in, KeyBytes.recordKey(Serdes.ByteArray().serializer(), "in"),
            FilterSpec.of("qht").with("memory-bits", memoryBits)).to(out, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        final Path stateDir = Files.createTempDirectory("ddf-e2e");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        final long start = System.nanoTime();
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props);
             KafkaConsumer<byte[], byte[]> consumer = consumer(cluster))
        {
            streams.start();
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < 4; p++)
            {
                partitions.add(new TopicPartition(out, p));
            }
            consumer.assign(partitions);
            long seen = 0;
            final long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (seen < unique && System.nanoTime() < deadline)
            {
                seen += consumer.poll(Duration.ofMillis(200)).count();
            }
            final double exact = (System.nanoTime() - start) / 1e9;
            // The rest (the filter's false negatives, or a poll's overshoot) within a few quiet seconds.
            int quiet = 0;
            while (quiet < 10)
            {
                final int n = consumer.poll(Duration.ofMillis(200)).count();
                seen += n;
                quiet = n == 0 ? quiet + 1 : 0;
            }
            System.out.printf("%s: %d records (%d distinct keys, %d written in all) in %.1f s from start to the last distinct key's " +
                "output: %.0f records/s%n",
                guarantee, records, unique, seen, exact, records / exact);
        }
        changelogSize(cluster, admin, app + "-" + Dedup.DEFAULT_STORE_NAME + "-changelog", records);
    }

    private static void changelogSize(final KafkaClusterTestKit cluster, final Admin admin, final String topic,
        final int inputRecords) throws Exception
    {
        long count = 0;
        long bytes = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(cluster))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < 4; p++)
            {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            boolean done = false;
            while (!done)
            {
                for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500)))
                {
                    count++;
                    bytes += r.serializedKeySize() + r.serializedValueSize();
                }
                done = true;
                for (final TopicPartition tp : partitions)
                {
                    done &= consumer.position(tp) >= end.get(tp);
                }
            }
        }
        long logBytes = 0;
        final Map<Integer, Map<String, LogDirDescription>> dirs =
            admin.describeLogDirs(cluster.brokers().keySet()).allDescriptions().get();
        for (final Map<String, LogDirDescription> byDir : dirs.values())
        {
            for (final LogDirDescription d : byDir.values())
            {
                for (final Map.Entry<TopicPartition, ReplicaInfo> e : d.replicaInfos().entrySet())
                {
                    if (e.getKey().topic().equals(topic))
                    {
                        logBytes += e.getValue().size();
                    }
                }
            }
        }
        System.out.printf("  changelog %s: %d records (%.3f per input record), %.2f key+value bytes and %.2f log " +
            "bytes per input record (before compaction)%n", topic, count, (double)count / inputRecords,
            (double)bytes / inputRecords, (double)logBytes / inputRecords);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(final KafkaClusterTestKit cluster)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
