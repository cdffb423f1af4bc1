package io.ddf.kafka;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * A record's original key and value as one repartition value, so that repartitioning by the dedup key keeps the
 * original key, serialized with the stream's own serdes.
 *
 * <pre>
 *   +-----------------+----------------+-----------------+----------------+
 *   | key length (4)  | key bytes      | value length (4)| value bytes    |
 *   +-----------------+----------------+-----------------+----------------+
 *   lengths are -1 for null
 * </pre>
 *
 * @param <K> the original key type.
 * @param <V> the original value type.
 */
final class PairSerde<K, V> implements Serde<KeyValue<K, V>>, Serializer<KeyValue<K, V>>, Deserializer<KeyValue<K, V>>
{
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    PairSerde(final Serde<K> keySerde, final Serde<V> valueSerde)
    {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public byte[] serialize(final String topic, final KeyValue<K, V> pair)
    {
        if (pair == null)
        {
            return null;
        }
        final byte[] key = pair.key == null ? null : keySerde.serializer().serialize(topic, pair.key);
        final byte[] value = pair.value == null ? null : valueSerde.serializer().serialize(topic, pair.value);
        final ByteBuffer out = ByteBuffer.allocate(8 + length(key) + length(value));
        put(out, key);
        put(out, value);
        return out.array();
    }

    private static int length(final byte[] bytes)
    {
        return bytes == null ? 0 : bytes.length;
    }

    private static void put(final ByteBuffer out, final byte[] bytes)
    {
        out.putInt(bytes == null ? -1 : bytes.length);
        if (bytes != null)
        {
            out.put(bytes);
        }
    }

    @Override
    public KeyValue<K, V> deserialize(final String topic, final byte[] data)
    {
        if (data == null)
        {
            return null;
        }
        final ByteBuffer in = ByteBuffer.wrap(data);
        final byte[] key = take(in, data);
        final byte[] value = take(in, data);
        return KeyValue.pair(key == null ? null : keySerde.deserializer().deserialize(topic, key),
            value == null ? null : valueSerde.deserializer().deserialize(topic, value));
    }

    private static byte[] take(final ByteBuffer in, final byte[] data)
    {
        if (in.remaining() < 4)
        {
            throw new SerializationException("ddf repartition record of " + data.length + " bytes is truncated");
        }
        final int length = in.getInt();
        if (length < -1 || length > in.remaining())
        {
            throw new SerializationException("ddf repartition record of " + data.length + " bytes has a field of " +
                length + " bytes");
        }
        if (length == -1)
        {
            return null;
        }
        final byte[] bytes = Arrays.copyOfRange(data, in.position(), in.position() + length);
        in.position(in.position() + length);
        return bytes;
    }

    @Override
    public Serializer<KeyValue<K, V>> serializer()
    {
        return this;
    }

    @Override
    public Deserializer<KeyValue<K, V>> deserializer()
    {
        return this;
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey)
    {
        // The wrapped serdes come configured.
    }

    @Override
    public void close()
    {
        // Nothing of its own to release; the wrapped serdes belong to the caller.
    }
}
