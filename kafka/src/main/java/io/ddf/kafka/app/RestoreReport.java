package io.ddf.kafka.app;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

/**
 * The application's report of its restores and state changes, one line each on stderr: {@code restored N changelog
 * records of STORE from PARTITION in T ms} as each changelog partition is done, and {@code RUNNING (restored N
 * changelog records since start, T ms restoring)} when processing starts, T from the first restore's start to the
 * last one's end (the stream thread restores its tasks' partitions together, so their times overlap). Kafka Streams
 * calls a restore listener from its stream threads, hence the synchronisation.
 */
public final class RestoreReport implements StateRestoreListener
{
    private final PrintStream err;
    private final String prefix;
    private final Map<TopicPartition, Long> started = new HashMap<>();
    private long restored;
    private long firstStartNanos = -1;
    private long lastEndNanos = -1;

    /**
     * @param err    where the lines go.
     * @param prefix what each line starts with (the application's name and a colon).
     */
    public RestoreReport(final PrintStream err, final String prefix)
    {
        this.err = err;
        this.prefix = prefix;
    }

    @Override
    public synchronized void onRestoreStart(final TopicPartition partition, final String store, final long start,
        final long end)
    {
        final long now = System.nanoTime();
        started.put(partition, now);
        if (firstStartNanos < 0)
        {
            firstStartNanos = now;
        }
    }

    @Override
    public void onBatchRestored(final TopicPartition partition, final String store, final long end, final long count)
    {
    }

    @Override
    public synchronized void onRestoreEnd(final TopicPartition partition, final String store, final long total)
    {
        final long now = System.nanoTime();
        lastEndNanos = now;
        restored += total;
        final Long start = started.remove(partition);
        err.println(prefix + " restored " + total + " changelog records of " + store + " from " + partition +
            " in " + (start == null ? 0 : (now - start) / 1_000_000) + " ms");
    }

    /**
     * @param now    the new state.
     * @param before the previous one.
     */
    public synchronized void stateChanged(final KafkaStreams.State now, final KafkaStreams.State before)
    {
        err.println(prefix + " " + now + (now == KafkaStreams.State.RUNNING ? " (restored " + restored +
            " changelog records since start, " + restoringMillis() + " ms restoring)" : ""));
        if (now == KafkaStreams.State.RUNNING)
        {
            firstStartNanos = -1;
            lastEndNanos = -1;
        }
    }

    private long restoringMillis()
    {
        return firstStartNanos < 0 || lastEndNanos < 0 ? 0 : (lastEndNanos - firstStartNanos) / 1_000_000;
    }
}
