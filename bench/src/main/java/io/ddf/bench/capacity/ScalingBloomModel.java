package io.ddf.bench.capacity;

import io.ddf.engine.hash.Mix;

import java.util.ArrayList;
import java.util.List;

/**
 * A MODEL of RedisBloom's scaling Bloom filter (SBChain, RedisBloom 2.x {@code sb.c}), not RedisBloom itself, which
 * is not installable here. What it reproduces, from RedisBloom's documentation and source: the first sub-filter
 * holds {@code capacity} items at error ε·0.5 (the tightening ratio, applied at creation when the chain may scale);
 * when the newest is full a new one is added with capacity × EXPANSION (default 2) and error × 0.5; an add first
 * checks every sub-filter and adds nothing when one answers present; each sub-filter is a Bloom filter of
 * ⌈capacity · (−ln ε / ln²2)⌉ bits (no rounding to a power of two, RedisBloom's NOROUND) and ⌈ln 2 · bits per
 * entry⌉ hash functions. What it does not: RedisBloom's MurmurHash64A positions (this uses SplitMix64-derived
 * enhanced double hashing, an ideal-hash stand-in), and its allocation overheads.
 */
final class ScalingBloomModel implements Candidate
{
    private static final double TIGHTENING = 0.5;
    private static final double LN2 = Math.log(2);

    /** One sub-filter. */
    private static final class Link
    {
        final long[] words;
        final long bits;
        final int hashes;
        final long entries;
        final double error;
        long size;

        Link(final long entries, final double error)
        {
            final double bpe = -Math.log(error) / (LN2 * LN2);
            this.entries = entries;
            this.error = error;
            this.bits = (long)Math.ceil(entries * bpe);
            this.hashes = (int)Math.ceil(LN2 * bpe);
            this.words = new long[(int)((bits + 63) >>> 6)];
        }

        long position(final long hash, final long step, final int i)
        {
            return Mix.reduce(hash + i * step + (long)(i * i * i - i) / 6 * Mix.GOLDEN_GAMMA, bits);
        }

        boolean contains(final long hash)
        {
            final long step = Mix.mix64(hash) | 1;
            for (int i = 0; i < hashes; i++)
            {
                final long p = position(hash, step, i);
                if ((words[(int)(p >>> 6)] & (1L << p)) == 0)
                {
                    return false;
                }
            }
            return true;
        }

        void add(final long hash)
        {
            final long step = Mix.mix64(hash) | 1;
            for (int i = 0; i < hashes; i++)
            {
                final long p = position(hash, step, i);
                words[(int)(p >>> 6)] |= 1L << p;
            }
            size++;
        }
    }

    private final List<Link> links = new ArrayList<>();
    private final int expansion;

    ScalingBloomModel(final long capacity, final double errorRate, final int expansion)
    {
        this.expansion = expansion;
        links.add(new Link(capacity, errorRate * TIGHTENING));
    }

    @Override
    public String name()
    {
        return "RedisBloom scaling filter (model, EXPANSION " + expansion + ")";
    }

    private static long hash(final long item)
    {
        return Mix.mix64(item ^ 0x5851F42D4C957F2DL);
    }

    @Override
    public boolean add(final long item)
    {
        final long h = hash(item);
        for (int i = links.size() - 1; i >= 0; i--)
        {
            if (links.get(i).contains(h))
            {
                return false;
            }
        }
        Link current = links.get(links.size() - 1);
        if (current.size >= current.entries)
        {
            current = new Link(current.entries * expansion, current.error * TIGHTENING);
            links.add(current);
        }
        current.add(h);
        return true;
    }

    @Override
    public boolean contains(final long item)
    {
        final long h = hash(item);
        for (int i = links.size() - 1; i >= 0; i--)
        {
            if (links.get(i).contains(h))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public long bytes()
    {
        long bytes = 0;
        for (final Link link : links)
        {
            bytes += (link.bits + 7) / 8;
        }
        return bytes;
    }

    /** @return the sub-filters so far. */
    int layers()
    {
        return links.size();
    }

    @Override
    public void close()
    {
    }
}
