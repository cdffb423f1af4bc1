package io.ddf.kafka;

import org.apache.kafka.common.serialization.Serializer;

/**
 * Extracts the bytes a record is deduplicated by: two records are copies of one element when these bytes are equal.
 *
 * @param <K> the record key type.
 * @param <V> the record value type.
 */
@FunctionalInterface
public interface KeyBytes<K, V>
{
    /**
     * @param key   the record's key.
     * @param value the record's value.
     * @return the element's bytes, or null when the record has none (it then passes unjudged).
     */
    byte[] apply(K key, V value);

    /**
     * @return whether the bytes depend on the record key alone, so records that share them already share a
     *         partition (when the input was partitioned by key) and need no repartitioning.
     */
    default boolean byRecordKey()
    {
        return false;
    }

    /**
     * @param serializer the record key's serializer.
     * @param topic      the topic name handed to the serializer.
     * @param <K>        the record key type.
     * @param <V>        the record value type.
     * @return the record key's serialized bytes: records are already partitioned by them.
     */
    static <K, V> KeyBytes<K, V> recordKey(final Serializer<K> serializer, final String topic)
    {
        return new KeyBytes<>()
        {
            @Override
            public byte[] apply(final K key, final V value)
            {
                return key == null ? null : serializer.serialize(topic, key);
            }

            @Override
            public boolean byRecordKey()
            {
                return true;
            }
        };
    }

    /**
     * @param serializer the record value's serializer.
     * @param topic      the topic name handed to the serializer.
     * @param <K>        the record key type.
     * @param <V>        the record value type.
     * @return the record value's serialized bytes.
     */
    static <K, V> KeyBytes<K, V> recordValue(final Serializer<V> serializer, final String topic)
    {
        return (key, value) -> value == null ? null : serializer.serialize(topic, value);
    }
}
