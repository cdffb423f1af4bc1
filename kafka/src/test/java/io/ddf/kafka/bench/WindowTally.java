package io.ddf.kafka.bench;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;

/**
 * The window bench's output check. Reads an application's output topic (read committed) from its start until every
 * partition's end record ({@link BenchInput#endKeys}) has arrived, noting which input records (by their value,
 * {@code seq-I}) came out, then judges them against the input drawn again: at each record, the stream time of its
 * partition (the latest timestamp seen there, which is the time both applications judge at), and the time its id last
 * came out.
 *
 * <ul>
 *   <li><b>doubled inside the window</b>: a record that came out although its id came out less than W before (at
 *       the stream time), or that came out twice;</li>
 *   <li><b>missing</b>: a record dropped although its id had not come out within W + W/L before (nor ever): ddf's
 *       promise is to forget by then, and the window store's to remember exactly W;</li>
 *   <li><b>dropped between W and W + W/L</b>: what ddf's promise leaves free (remembered at least W, at most
 *       W + W/L); the window store, which remembers exactly W, has none.</li>
 * </ul>
 */
final class WindowTally implements AutoCloseable
{
    /** The check's counts. */
    record Check(long passed, long doubledInside, long missing, long droppedAfterWindow)
    {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final BitSet passed = new BitSet();
    private final boolean[] ended;
    private int ends;
    private long outputTwice;
    private long lastArrivalNanos;

    /**
     * @param bootstrap  the broker.
     * @param topic      the output topic.
     * @param partitions its partitions.
     */
    WindowTally(final String bootstrap, final String topic, final int partitions)
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
        ended = new boolean[partitions];
    }

    /**
     * @param timeout the longest wait.
     * @return true when every partition's end record has arrived, false on timeout.
     */
    boolean readUntilTheEnd(final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline)
        {
            final var batch = consumer.poll(Duration.ofMillis(100));
            final long now = System.nanoTime();
            for (final ConsumerRecord<byte[], byte[]> r : batch)
            {
                count(r.key(), r.value(), r.partition());
            }
            if (!batch.isEmpty())
            {
                lastArrivalNanos = now;
            }
            if (ends == ended.length)
            {
                return true;
            }
        }
        return false;
    }

    private void count(final byte[] key, final byte[] value, final int partition)
    {
        if (key != null && key.length > 4 && key[0] == 'e' && key[1] == 'n' && key[2] == 'd' && key[3] == '-')
        {
            if (!ended[partition])
            {
                ended[partition] = true;
                ends++;
            }
            return;
        }
        int seq = 0;
        for (int i = 4; i < value.length; i++) // "seq-" then decimal digits
        {
            seq = seq * 10 + (value[i] - '0');
        }
        if (passed.get(seq))
        {
            outputTwice++;
        }
        passed.set(seq);
    }

    /** @return {@link System#nanoTime()} when the last record arrived, 0 if none. */
    long lastArrivalNanos()
    {
        return lastArrivalNanos;
    }

    /**
     * @param input      the input.
     * @param partitions its partitions.
     * @param window     W, in ms.
     * @param forgotten  W + W/L, in ms: when ddf has forgotten an id at the latest.
     * @return the counts.
     */
    Check check(final BenchInput input, final int partitions, final long window, final long forgotten)
    {
        final long[] lastOut = new long[input.alphabet()];
        Arrays.fill(lastOut, Long.MIN_VALUE);
        final byte[] partitionOf = new byte[input.alphabet()];
        Arrays.fill(partitionOf, (byte)-1);
        final long[] streamTime = new long[partitions];
        Arrays.fill(streamTime, Long.MIN_VALUE);
        final long[] counts = new long[4];
        input.draw((seq, id, time) ->
        {
            if (partitionOf[id] < 0)
            {
                partitionOf[id] = (byte)BenchInput.partition(("id-" + id).getBytes(StandardCharsets.US_ASCII),
                    partitions);
            }
            final int p = partitionOf[id];
            final long s = Math.max(streamTime[p], time);
            streamTime[p] = s;
            final long last = lastOut[id];
            if (passed.get((int)seq))
            {
                counts[0]++;
                if (last != Long.MIN_VALUE && s - last < window)
                {
                    counts[1]++;
                }
                lastOut[id] = s;
            }
            else if (last == Long.MIN_VALUE || s - last >= forgotten)
            {
                counts[2]++;
            }
            else if (s - last >= window)
            {
                counts[3]++;
            }
        });
        return new Check(counts[0], counts[1] + outputTwice, counts[2], counts[3]);
    }

    @Override
    public void close()
    {
        consumer.close();
    }
}
