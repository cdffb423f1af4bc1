package io.ddf.kafka;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Throughput of the dedup topology through TopologyTestDriver (which commits, and so logs, after every record):
 * {@code java -cp ... io.ddf.kafka.TopologyThroughput [records] [memory-bits] [guarantee]}. Prints records/s and
 * changelog bytes (keys and values) per input record. Not a unit test: run by hand, figures in kafka/README.md.
 */
public final class TopologyThroughput
{
    private TopologyThroughput()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final long memoryBits = args.length > 1 ? Long.parseLong(args[1]) : 1L << 20;
        final String guarantee = args.length > 2 ? args[2] : StreamsConfig.AT_LEAST_ONCE;
        final boolean logging = args.length <= 3 || !args[3].equals("nolog");
        final Path dir = Files.createTempDirectory("ddf-ttd");
        final Random random = new Random(42);
        final List<TestRecord<String, String>> input = new ArrayList<>(records);
        for (int i = 0; i < records; i++)
        {
            // Half the stream repeats earlier elements.
            input.add(new TestRecord<>("click-" + random.nextInt(records / 2), "v"));
        }
        final FilterSpec spec = FilterSpec.of("qht").with("memory-bits", memoryBits);
        for (int round = 0; round < 3; round++)
        {
            final Path stateDir = dir.resolve("r" + round);
            final org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
            final org.apache.kafka.streams.kstream.KStream<String, String> in = builder.stream("in",
                org.apache.kafka.streams.kstream.Consumed.with(org.apache.kafka.common.serialization.Serdes.String(),
                    org.apache.kafka.common.serialization.Serdes.String()));
            final Dedup<String, String> dedup = Dedup.by(KeyBytes.recordKey(new StringSerializer(), "in"), spec);
            (logging ? dedup : dedup.withLoggingDisabled()).dropDuplicates(in).to("out",
                org.apache.kafka.streams.kstream.Produced.with(org.apache.kafka.common.serialization.Serdes.String(),
                    org.apache.kafka.common.serialization.Serdes.String()));
            try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(),
                DedupTopologyTest.props(stateDir, guarantee)))
            {
                final TestInputTopic<String, String> topic = driver.createInputTopic("in", new StringSerializer(),
                    new StringSerializer());
                final TestOutputTopic<byte[], byte[]> changelog = driver.createOutputTopic(DedupTopologyTest.CHANGELOG,
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
                final long start = System.nanoTime();
                long logBytes = 0;
                for (int i = 0; i < records; i++)
                {
                    topic.pipeInput(input.get(i));
                    if ((i & 1023) == 1023 && logging)
                    {
                        for (final TestRecord<byte[], byte[]> r : changelog.readRecordsToList())
                        {
                            logBytes += r.key().length + r.value().length;
                        }
                    }
                }
                final double seconds = (System.nanoTime() - start) / 1e9;
                if (logging)
                {
                    for (final TestRecord<byte[], byte[]> r : changelog.readRecordsToList())
                    {
                        logBytes += r.key().length + r.value().length;
                    }
                }
                System.out.printf("round %d: %d records, qht memory-bits %d, %s%s: %.0f records/s, " +
                        "changelog %.1f bytes (key+value) per input record%n",
                    round, records, memoryBits, guarantee, logging ? "" : " (no changelog)", records / seconds,
                    (double)logBytes / records);
            }
        }
    }
}
