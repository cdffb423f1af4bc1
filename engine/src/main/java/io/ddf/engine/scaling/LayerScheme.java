package io.ddf.engine.scaling;

import io.ddf.engine.redisbloom.BloomLink;
import org.agrona.DirectBuffer;

/**
 * How a scaling Bloom filter hashes its items and lays out its layers: RedisBloom's own
 * ({@link RedisBloomScheme}: MurmurHash, RedisBloom's bit array, bit for bit) or ddf's ({@link DdfScheme}: XXH3,
 * a layer ddf sizes to keep the error rate), both with RedisBloom's capacities and error rates per layer.
 */
interface LayerScheme
{
    /** @return the file family of chains of this scheme. */
    int family();

    /** @return the option bits of the chain. */
    int options();

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return the item's first value.
     */
    long first(DirectBuffer item, int offset, int length);

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @param first  its first value.
     * @return its second value.
     */
    long second(DirectBuffer item, int offset, int length, long first);

    /**
     * @param entries the layer's capacity.
     * @param error   its error rate.
     * @return the layer RedisBloom would make for them (what BF.DEBUG reports).
     * @throws IllegalArgumentException when RedisBloom could not make one.
     */
    default BloomLink shape(final long entries, final double error)
    {
        return BloomLink.create(entries, error, options());
    }

    /**
     * Appends a new, empty layer of that shape to the file.
     *
     * @param file  the chain's file.
     * @param shape the layer's RedisBloom shape.
     * @return the layer.
     */
    ChainLayer append(ChainFile file, BloomLink shape);

    /**
     * @param segment a layer's segment, read from the file.
     * @return the layer over it.
     * @throws IllegalArgumentException when the segment is not a layer of this scheme.
     */
    ChainLayer layer(ChainFile.Segment segment);

    /**
     * @param segment a layer's segment.
     * @param kind    the segment kind the scheme's layers have.
     * @param what    the layers' name, for the message.
     * @return the RedisBloom shape its header records, checked against the segment.
     * @throws IllegalArgumentException when the segment is not such a layer.
     */
    static BloomLink checkedShape(final ChainFile.Segment segment, final int kind, final String what)
    {
        final BloomLink shape = recordedShape(segment);
        if (segment.kind() != kind || segment.dataBytes() != shape.bytes())
        {
            throw new IllegalArgumentException("layer " + segment.index() + " is not a " + what);
        }
        return shape;
    }

    /**
     * @param file  a chain's file.
     * @param kind  the segment kind.
     * @param shape a layer's RedisBloom shape.
     * @return the segment appended for it, its data {@code shape.bytes()} long.
     */
    static ChainFile.Segment appendShape(final ChainFile file, final int kind, final BloomLink shape)
    {
        return file.append(kind, shape.bytes(), shapeWords(shape), shape.size());
    }

    /**
     * @param segment a segment.
     * @return the RedisBloom shape its header records.
     */
    static BloomLink recordedShape(final ChainFile.Segment segment)
    {
        final BloomLink shape = new BloomLink(segment.shape(6), segment.shape(5), segment.size(),
            Double.longBitsToDouble(segment.shape(1)), Double.longBitsToDouble(segment.shape(2)),
            (int)segment.shape(3), segment.shape(0), (int)segment.shape(4));
        shape.validate();
        return shape;
    }

    /**
     * @param shape a RedisBloom shape.
     * @return the words that record it in a segment's header.
     */
    static long[] shapeWords(final BloomLink shape)
    {
        return new long[] {shape.entries(), Double.doubleToRawLongBits(shape.error()),
            Double.doubleToRawLongBits(shape.bpe()), shape.hashes(), shape.n2(), shape.bits(), shape.bytes()};
    }
}
