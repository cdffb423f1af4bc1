package io.ddf.kafka;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The dedup operator: every copy of an element must reach the same task, whose {@link DdfStore} judges it.
 *
 * <pre>{@code
 * // one call, when the dedup key is the record key (the input is then already partitioned by it):
 * KStream<String, String> unique = Dedup.dropDuplicates(clicks,
 *     KeyBytes.recordKey(Serdes.String().serializer(), "clicks"), FilterSpec.of("qht").with("memory-bits", 1L << 27));
 *
 * // a key inside the value: repartition by it, keeping each record's key and value
 * KStream<String, Click> unique = Dedup.by((k, v) -> v.id().getBytes(UTF_8), spec)
 *     .repartitionWith(Serdes.String(), clickSerde)
 *     .dropDuplicates(clicks);            // or .markVerdicts(clicks): every record, with a ddf-verdict header
 * }</pre>
 *
 * With the Processor API: add {@link #storeBuilder()} to the topology and a {@link DedupProcessor} connected to it,
 * or use {@link #processor} (a supplier that brings its store).
 *
 * @param <K> the record key type.
 * @param <V> the record value type.
 */
public final class Dedup<K, V>
{
    /** Default store name; it also names the changelog topic {@code <application.id>-ddf-dedup-changelog}. */
    public static final String DEFAULT_STORE_NAME = "ddf-dedup";

    private final KeyBytes<K, V> keyBytes;
    private final FilterSpec spec;
    private String storeName = DEFAULT_STORE_NAME;
    private Serde<K> keySerde;
    private Serde<V> valueSerde;
    private Map<String, String> logConfig = Collections.emptyMap();
    private boolean logging = true;
    private ChangelogFormat changelogFormat = ChangelogFormat.AUTO;

    private Dedup(final KeyBytes<K, V> keyBytes, final FilterSpec spec)
    {
        this.keyBytes = Objects.requireNonNull(keyBytes, "keyBytes");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    /**
     * @param keyBytes the dedup key of a record.
     * @param spec     the filter each task holds.
     * @param <K>      the record key type.
     * @param <V>      the record value type.
     * @return an operator to configure further.
     */
    public static <K, V> Dedup<K, V> by(final KeyBytes<K, V> keyBytes, final FilterSpec spec)
    {
        return new Dedup<>(keyBytes, spec);
    }

    /**
     * Drops duplicates, in one call, when the dedup key depends on the record key alone ({@link KeyBytes#recordKey}).
     *
     * @param stream   the input.
     * @param keyBytes the dedup key of a record.
     * @param spec     the filter each task holds.
     * @param <K>      the record key type.
     * @param <V>      the record value type.
     * @return the records judged UNSEEN (and those without a dedup key).
     * @throws IllegalArgumentException when the spec is invalid, or the key needs repartitioning (use the
     *                                  overload with serdes).
     */
    public static <K, V> KStream<K, V> dropDuplicates(final KStream<K, V> stream, final KeyBytes<K, V> keyBytes,
        final FilterSpec spec)
    {
        return by(keyBytes, spec).dropDuplicates(stream);
    }

    /**
     * Drops duplicates, in one call, repartitioning by the dedup key unless it is the record key.
     *
     * @param stream     the input.
     * @param keyBytes   the dedup key of a record.
     * @param spec       the filter each task holds.
     * @param keySerde   the stream's key serde, to repartition.
     * @param valueSerde the stream's value serde, to repartition.
     * @param <K>        the record key type.
     * @param <V>        the record value type.
     * @return the records judged UNSEEN (and those without a dedup key).
     */
    public static <K, V> KStream<K, V> dropDuplicates(final KStream<K, V> stream, final KeyBytes<K, V> keyBytes,
        final FilterSpec spec, final Serde<K> keySerde, final Serde<V> valueSerde)
    {
        return by(keyBytes, spec).repartitionWith(keySerde, valueSerde).dropDuplicates(stream);
    }

    /**
     * @param name the store's name (default {@value #DEFAULT_STORE_NAME}); two operators in one topology need two.
     * @return this.
     */
    public Dedup<K, V> storeName(final String name)
    {
        this.storeName = name;
        return this;
    }

    /**
     * @param keySerde   the stream's key serde.
     * @param valueSerde the stream's value serde.
     * @return this, repartitioning by the dedup key when it is not the record key.
     */
    public Dedup<K, V> repartitionWith(final Serde<K> keySerde, final Serde<V> valueSerde)
    {
        this.keySerde = Objects.requireNonNull(keySerde, "keySerde");
        this.valueSerde = Objects.requireNonNull(valueSerde, "valueSerde");
        return this;
    }

    /**
     * @param config changelog topic configs (the cleanup policy is always compact).
     * @return this.
     */
    public Dedup<K, V> withLogConfig(final Map<String, String> config)
    {
        this.logConfig = Map.copyOf(config);
        this.logging = true;
        return this;
    }

    /**
     * @param format what the changelog records ({@link ChangelogFormat#AUTO}: the new elements' hashes where the
     *               kind allows, else the changed words).
     * @return this.
     */
    public Dedup<K, V> changelogFormat(final ChangelogFormat format)
    {
        this.changelogFormat = Objects.requireNonNull(format, "format");
        return this;
    }

    /** @return this, without a changelog: a lost instance's filters are lost, and restart empty elsewhere. */
    public Dedup<K, V> withLoggingDisabled()
    {
        this.logging = false;
        return this;
    }

    /** @return a builder of the store (checked now: a bad spec fails here). */
    public StoreBuilder<DdfStore> storeBuilder()
    {
        final DdfStoreBuilder builder = new DdfStoreBuilder(storeName, spec);
        return logging ? builder.withLoggingEnabled(logConfig).withChangelogFormat(changelogFormat) :
            builder.withLoggingDisabled();
    }

    /**
     * @param mode drop or mark duplicates.
     * @return a processor supplier that brings its store, for the Processor API or {@code KStream.process}; it
     *         does not repartition.
     */
    public ProcessorSupplier<K, V, K, V> processor(final DedupProcessor.Mode mode)
    {
        return supplier(storeBuilder(), storeName, keyBytes, mode);
    }

    private static <A, B> ProcessorSupplier<A, B, A, B> supplier(final StoreBuilder<DdfStore> store,
        final String storeName, final KeyBytes<A, B> keyBytes, final DedupProcessor.Mode mode)
    {
        return new ProcessorSupplier<>()
        {
            @Override
            public DedupProcessor<A, B> get()
            {
                return new DedupProcessor<>(storeName, keyBytes, mode);
            }

            @Override
            public Set<StoreBuilder<?>> stores()
            {
                return Collections.singleton(store);
            }
        };
    }

    /**
     * @param stream the input.
     * @return the records judged UNSEEN (and those without a dedup key), with their original keys.
     */
    public KStream<K, V> dropDuplicates(final KStream<K, V> stream)
    {
        return apply(stream, DedupProcessor.Mode.DROP);
    }

    /**
     * @param stream the input.
     * @return every record, each with a {@link VerdictHeader} (none for a record without a dedup key).
     */
    public KStream<K, V> markVerdicts(final KStream<K, V> stream)
    {
        return apply(stream, DedupProcessor.Mode.MARK);
    }

    private KStream<K, V> apply(final KStream<K, V> stream, final DedupProcessor.Mode mode)
    {
        final StoreBuilder<DdfStore> store = storeBuilder();
        if (keyBytes.byRecordKey())
        {
            return stream.process(supplier(store, storeName, keyBytes, mode), Named.as(storeName));
        }
        if (keySerde == null)
        {
            throw new IllegalArgumentException("ddf dedup '" + storeName + "': the dedup key is not the record key, " +
                "so copies of an element may be in different partitions; give the stream's serdes with " +
                "repartitionWith(keySerde, valueSerde) so they can be repartitioned by it");
        }
        final KeyBytes<K, V> extract = keyBytes;
        final KeyBytes<Bytes, KeyValue<K, V>> repartitionedKey = new KeyBytes<>()
        {
            @Override
            public byte[] apply(final Bytes key, final KeyValue<K, V> pair)
            {
                return key == null ? null : key.get();
            }

            @Override
            public boolean byRecordKey()
            {
                return true;
            }
        };
        return stream
            .map((k, v) ->
            {
                final byte[] dedupKey = extract.apply(k, v);
                return KeyValue.pair(dedupKey == null ? null : Bytes.wrap(dedupKey), KeyValue.pair(k, v));
            }, Named.as(storeName + "-key"))
            .repartition(Repartitioned.<Bytes, KeyValue<K, V>>as(storeName + "-by-key")
                .withKeySerde(Serdes.Bytes())
                .withValueSerde(new PairSerde<>(keySerde, valueSerde)))
            .process(supplier(store, storeName, repartitionedKey, mode), Named.as(storeName))
            .map((k, pair) -> pair, Named.as(storeName + "-unkey"));
    }
}
