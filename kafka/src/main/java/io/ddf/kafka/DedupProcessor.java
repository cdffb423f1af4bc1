package io.ddf.kafka;

import io.ddf.engine.Verdict;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Streams each record's dedup key through the task's {@link DdfStore}: in {@link Mode#DROP} forwards only the
 * records judged UNSEEN, in {@link Mode#MARK} forwards every record with a {@link VerdictHeader}. A record without
 * a dedup key (the extractor gives null) is forwarded unjudged, without a header.
 *
 * <p>With a window of time ({@link FilterSpec#window}) each key is streamed at its record's timestamp: the store's
 * filter keeps the latest timestamp it was given as its time (the task's stream time), and judges a late or
 * out-of-order record as of that time ({@link DdfStore#stream(byte[], int, int, long)}).
 *
 * @param <K> the record key type.
 * @param <V> the record value type.
 */
public final class DedupProcessor<K, V> implements Processor<K, V, K, V>
{
    /** What happens to a DUPLICATE. */
    public enum Mode
    {
        /** Dropped: only records judged UNSEEN go on. */
        DROP,
        /** Forwarded with its verdict in a {@link VerdictHeader}, as every other record. */
        MARK
    }

    private final String storeName;
    private final KeyBytes<K, V> keyBytes;
    private final Mode mode;
    private ProcessorContext<K, V> context;
    private DdfStore store;
    private boolean timed;

    /**
     * @param storeName the {@link DdfStore} connected to this processor.
     * @param keyBytes  the dedup key of a record.
     * @param mode      drop or mark duplicates.
     */
    public DedupProcessor(final String storeName, final KeyBytes<K, V> keyBytes, final Mode mode)
    {
        this.storeName = storeName;
        this.keyBytes = keyBytes;
        this.mode = mode;
    }

    @Override
    public void init(final ProcessorContext<K, V> context)
    {
        this.context = context;
        final Object found = context.getStateStore(storeName);
        if (!(found instanceof DdfStore))
        {
            throw new IllegalStateException("store '" + storeName + "' is a " +
                (found == null ? "missing store" : found.getClass().getName()) + ", not a ddf store");
        }
        this.store = (DdfStore)found;
        this.timed = store.timed();
    }

    @Override
    public void process(final Record<K, V> record)
    {
        final byte[] key = keyBytes.apply(record.key(), record.value());
        if (key == null)
        {
            context.forward(record);
            return;
        }
        final Verdict verdict = timed ? store.stream(key, 0, key.length, record.timestamp()) : store.stream(key);
        if (mode == Mode.DROP)
        {
            if (verdict == Verdict.UNSEEN)
            {
                context.forward(record);
            }
        }
        else
        {
            // A copy: the headers of a record may be shared with other branches of the topology.
            final RecordHeaders headers = new RecordHeaders(record.headers().toArray());
            headers.remove(VerdictHeader.NAME);
            headers.add(VerdictHeader.NAME, VerdictHeader.value(verdict));
            context.forward(record.withHeaders(headers));
        }
    }
}
