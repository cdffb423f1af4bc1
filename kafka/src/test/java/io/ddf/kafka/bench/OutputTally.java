package io.ddf.kafka.bench;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;

/**
 * Reads an application's output topic (read committed) from its start and tallies the ids ({@code id-N} keys): each
 * id seen, each id seen more than once, and when the last record arrived.
 */
final class OutputTally implements AutoCloseable
{
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final BitSet seen = new BitSet();
    private final BitSet twice = new BitSet();
    private long records;
    private long distinct;
    private long duplicated;
    private long lastArrivalNanos;

    /**
     * @param bootstrap  the broker.
     * @param topic      the output topic.
     * @param partitions its partitions.
     */
    OutputTally(final String bootstrap, final String topic, final int partitions)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        final List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++)
        {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
    }

    /**
     * Reads until {@code expected} distinct ids have arrived, or until at least {@code atLeast} have and nothing has
     * arrived for {@code quiet} (a filter may miss a few ids), or until {@code timeout}.
     *
     * @param expected the distinct ids of the input.
     * @param atLeast  the fewest that count as done.
     * @param quiet    how long without a record ends a tally that has at least {@code atLeast}.
     * @param timeout  the longest wait.
     * @return true when done, false on timeout.
     */
    boolean readUntil(final long expected, final long atLeast, final Duration quiet, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline)
        {
            final var batch = consumer.poll(Duration.ofMillis(100));
            final long now = System.nanoTime();
            for (final ConsumerRecord<byte[], byte[]> r : batch)
            {
                count(r.key());
            }
            if (!batch.isEmpty())
            {
                lastArrivalNanos = now;
            }
            if (distinct >= expected || (distinct >= atLeast && lastArrivalNanos > 0 && now - lastArrivalNanos > quiet.toNanos()))
            {
                return true;
            }
        }
        return false;
    }

    private void count(final byte[] key)
    {
        records++;
        int id = 0;
        for (int i = 3; i < key.length; i++) // "id-" then decimal digits
        {
            id = id * 10 + (key[i] - '0');
        }
        if (seen.get(id))
        {
            if (!twice.get(id))
            {
                twice.set(id);
                duplicated++;
            }
        }
        else
        {
            seen.set(id);
            distinct++;
        }
    }

    /** @return records read. */
    long records()
    {
        return records;
    }

    /** @return distinct ids read. */
    long distinct()
    {
        return distinct;
    }

    /** @return ids read more than once. */
    long duplicated()
    {
        return duplicated;
    }

    /** @return {@link System#nanoTime()} when the last record arrived, 0 if none. */
    long lastArrivalNanos()
    {
        return lastArrivalNanos;
    }

    @Override
    public void close()
    {
        consumer.close();
    }
}
