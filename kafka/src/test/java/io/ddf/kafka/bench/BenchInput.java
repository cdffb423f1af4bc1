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
 */
final class BenchInput
{
    private final long records;
    private final int alphabet;
    private final long seed;
    private long distinct = -1;

    /**
     * @param records records to produce.
     * @param ids     distinct ids wanted (at most records).
     * @param seed    the draws' seed.
     */
    BenchInput(final long records, final long ids, final long seed)
    {
        if (ids > records || ids < 1)
        {
            throw new IllegalArgumentException("ids must be in 1.." + records + ", got " + ids);
        }
        this.records = records;
        this.alphabet = alphabetFor(records, ids);
        this.seed = seed;
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
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 1 << 18);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        final BitSet seen = new BitSet(alphabet);
        final SplittableRandom random = new SplittableRandom(seed);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer()))
        {
            for (long i = 0; i < records; i++)
            {
                final int id = random.nextInt(alphabet);
                seen.set(id);
                producer.send(new ProducerRecord<>(topic, ("id-" + id).getBytes(StandardCharsets.US_ASCII),
                    ("seq-" + i).getBytes(StandardCharsets.US_ASCII)));
            }
        }
        distinct = seen.cardinality();
    }
}
