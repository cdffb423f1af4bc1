package io.ddf.kafka.bench;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The bench's input: {@code records} records keyed {@code id-N}, N drawn uniformly from an alphabet sized so that
 * about {@code ids} distinct ids appear (U with U·(1 − e^(−records/U)) = ids), value {@code seq-I}; partitioned by
 * the producer's default partitioner, as a user's producer would.
 *
 * <p>With event times ({@link Times}, the window bench): record I's timestamp is {@code start + I · span / records},
 * except that a fraction of the records are late, by up to a given time; and after the records, one record per
 * partition keyed {@code end-K} (a K whose key the partitioner sends to that partition), at the last time, which
 * every dedup lets through: its arrival says the partition's input is done.
 */
final class BenchInput
{
    /** Event times: the span of the records' timestamps, and the late ones. */
    record Times(long start, long span, double lateFraction, long lateMax)
    {
        long time(final long i, final long records, final SplittableRandom random)
        {
            final long on = start + (long)((double)i * span / records);
            return random.nextDouble() < lateFraction ? Math.max(0, on - 1 - random.nextLong(lateMax)) : on;
        }
    }

    /** Receives one record of the input: its sequence number, its id's number, its timestamp (-1 without times). */
    @FunctionalInterface
    interface Draw
    {
        void record(long seq, int id, long time);
    }

    private final long records;
    private final int alphabet;
    private final long seed;
    private final Times times;
    private long distinct = -1;

    /**
     * @param records records to produce.
     * @param ids     distinct ids wanted (at most records).
     * @param seed    the draws' seed.
     */
    BenchInput(final long records, final long ids, final long seed)
    {
        this(records, ids, seed, null);
    }

    /**
     * @param records records to produce.
     * @param ids     distinct ids wanted (at most records).
     * @param seed    the draws' seed.
     * @param times   the records' event times, or null for none (the producer's clock).
     */
    BenchInput(final long records, final long ids, final long seed, final Times times)
    {
        if (ids > records || ids < 1)
        {
            throw new IllegalArgumentException("ids must be in 1.." + records + ", got " + ids);
        }
        this.records = records;
        this.alphabet = alphabetFor(records, ids);
        this.seed = seed;
        this.times = times;
    }

    /** @return the records' event times, or null. */
    Times times()
    {
        return times;
    }

    /**
     * The records, drawn again as {@link #produce} drew them.
     *
     * @param draw receives each.
     */
    void draw(final Draw draw)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < records; i++)
        {
            final int id = random.nextInt(alphabet);
            draw.record(i, id, times == null ? -1 : times.time(i, records, random));
        }
    }

    /**
     * @param key        a record key.
     * @param partitions the topic's partitions.
     * @return the partition the producer's default partitioner sends it to.
     */
    static int partition(final byte[] key, final int partitions)
    {
        return org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(key)) %
            partitions;
    }

    /**
     * @param partitions the topic's partitions.
     * @return the end records' keys, one per partition, in the partitions' order.
     */
    static byte[][] endKeys(final int partitions)
    {
        final byte[][] keys = new byte[partitions][];
        int found = 0;
        for (int k = 0; found < partitions; k++)
        {
            final byte[] key = ("end-" + k).getBytes(StandardCharsets.US_ASCII);
            final int p = partition(key, partitions);
            if (keys[p] == null)
            {
                keys[p] = key;
                found++;
            }
        }
        return keys;
    }

    /**
     * @param n draws.
     * @param d distinct values wanted.
     * @return U such that n uniform draws from U values give d distinct ones on average (capped below 2^31).
     */
    static int alphabetFor(final long n, final long d)
    {
        double lo = d;
        double hi = Integer.MAX_VALUE - 1;
        if (expectedDistinct(n, hi) < d)
        {
            return (int)hi;
        }
        for (int i = 0; i < 200; i++)
        {
            final double mid = (lo + hi) / 2;
            if (expectedDistinct(n, mid) < d)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        return (int)Math.round(hi);
    }

    private static double expectedDistinct(final long n, final double u)
    {
        return -u * Math.expm1(-n / u);
    }

    /** @return U, the alphabet the ids are drawn from. */
    int alphabet()
    {
        return alphabet;
    }

    /** @return the records. */
    long records()
    {
        return records;
    }

    /** @return the distinct ids produced (after {@link #produce}). */
    long distinct()
    {
        return distinct;
    }

    /**
     * @param bootstrap the broker.
     * @param topic     the input topic (created).
     */
    void produce(final String bootstrap, final String topic)
    {
        produce(bootstrap, topic, 0);
    }

    /**
     * @param bootstrap  the broker.
     * @param topic      the input topic (created).
     * @param partitions its partitions, for the end records (with times; 0 for none).
     */
    void produce(final String bootstrap, final String topic, final int partitions)
    {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 1 << 18);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        final BitSet seen = new BitSet(alphabet);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer()))
        {
            final long[] last = new long[1];
            draw((i, id, time) ->
            {
                seen.set(id);
                producer.send(new ProducerRecord<>(topic, null, time < 0 ? null : time,
                    ("id-" + id).getBytes(StandardCharsets.US_ASCII), ("seq-" + i).getBytes(StandardCharsets.US_ASCII)));
                last[0] = Math.max(last[0], time);
            });
            if (times != null)
            {
                final byte[][] ends = endKeys(partitions);
                for (int p = 0; p < partitions; p++)
                {
                    producer.send(new ProducerRecord<>(topic, p, last[0], ends[p],
                        "end".getBytes(StandardCharsets.US_ASCII)));
                }
            }
        }
        distinct = seen.cardinality();
    }
}
