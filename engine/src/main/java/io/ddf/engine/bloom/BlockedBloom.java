package io.ddf.engine.bloom;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;

/**
 * The blocked Bloom layer (Putze, Sanders and Singler 2007; the split block Bloom filters of Impala, Parquet and
 * Arrow): B blocks of 512 bits, one 64-byte cache line each (the table is line-aligned in the mapped file), and every
 * bit of an item in d blocks (1, or 2 for the smallest error rates; {@code model/BlockedBloomModel} computes the
 * rate and the sizing).
 *
 * <p>From the item's 64-bit hash h: block 0 is ⌊h·B / 2^64⌋ (unsigned); block 1 (d = 2) the same of
 * mix64(h + 2γ). Each block's pattern is x = mix64(h + γ) (block 1: mix64(h + 3γ)), γ SplitMix64's increment:
 * rotation r = the top 3 bits of x, and bit i (i &lt; k/d ≤ 10) is bit (x &gt;&gt;&gt; 6i) mod 64 of word (r + i) mod 8
 * of the block. The first 8 bits of an item fall in 8 different words, so each word takes one mask and, in shared
 * mode, one compare-and-swap only when its bits are missing: a duplicate writes nothing. Owned
 * ({@link MappedWords#owned()}), the compare-and-swap is a plain load and a release store.
 *
 * <p>Static block operations take the region and the block's first word, so that a filter of several generations
 * of one geometry (the fifo-bloom) computes the hash's blocks and patterns once.
 */
public final class BlockedBloom
{
    /** Words per block: one 64-byte line. */
    public static final int BLOCK_WORDS = 8;
    /** Most bits an item sets in one block: one mixed word gives the rotation (3 bits) and 10 positions of 6. */
    public static final int MAX_BITS_PER_BLOCK = 10;
    /** Most blocks per item. */
    public static final int MAX_BLOCKS_PER_ITEM = 2;
    /** 64 blocks of 64 bytes: a 4 KiB page ({@link #part}). */
    private static final int PAGE_BLOCKS_SHIFT = 6;

    private final MappedWords words;
    /** The same words owned ({@link MappedWords#ownedView}): a replay lane's, the single writer of its pages. */
    private final MappedWords lane;
    private final long blocks;
    private final int perBlock;
    private final int blocksPerItem;

    /**
     * @param words         the layer's region, at least 8·B words, its first word on a cache line.
     * @param blocks        B, at least 1.
     * @param hashFunctions k, a multiple of d with k/d in 1..10.
     * @param blocksPerItem d, 1 or 2.
     */
    public BlockedBloom(final MappedWords words, final long blocks, final int hashFunctions, final int blocksPerItem)
    {
        if (blocks < 1 || blocksPerItem < 1 || blocksPerItem > MAX_BLOCKS_PER_ITEM || hashFunctions % blocksPerItem != 0
            || hashFunctions / blocksPerItem < 1 || hashFunctions / blocksPerItem > MAX_BITS_PER_BLOCK)
        {
            throw new IllegalArgumentException("no blocked layer of " + blocks + " blocks, k = " + hashFunctions +
                ", " + blocksPerItem + " blocks per item");
        }
        if (words.words() < blocks * BLOCK_WORDS)
        {
            throw new IllegalArgumentException(blocks + " blocks need " + blocks * BLOCK_WORDS + " words, the region " +
                "has " + words.words());
        }
        this.words = words.slice(0, blocks * BLOCK_WORDS);
        this.lane = this.words.ownedView();
        this.blocks = blocks;
        this.perBlock = hashFunctions / blocksPerItem;
        this.blocksPerItem = blocksPerItem;
    }

    /**
     * @param hash   the item's hash.
     * @param which  0, or 1 for the second block of d = 2.
     * @param blocks B.
     * @return the index of the item's block.
     */
    public static long block(final long hash, final int which, final long blocks)
    {
        return Mix.reduce(which == 0 ? hash : Mix.mix64(hash + 2 * Mix.GOLDEN_GAMMA), blocks);
    }

    /**
     * @param hash  the item's hash.
     * @param which 0, or 1 for the second block.
     * @return the pattern of its bits in that block.
     */
    public static long pattern(final long hash, final int which)
    {
        return Mix.mix64(hash + (2L * which + 1) * Mix.GOLDEN_GAMMA);
    }

    /**
     * @param words    a region.
     * @param first    the first word of a block in it.
     * @param pattern  the item's pattern for the block.
     * @param perBlock bits per block, 1..10.
     * @return whether every bit of the pattern is set.
     */
    public static boolean containsAt(final MappedWords words, final long first, final long pattern, final int perBlock)
    {
        final int rotation = (int)(pattern >>> 61);
        final int lanes = Math.min(perBlock, BLOCK_WORDS);
        for (int i = 0; i < lanes; i++)
        {
            final long mask = mask(pattern, i, perBlock);
            if ((words.getLongVolatile(first + ((rotation + i) & (BLOCK_WORDS - 1))) & mask) != mask)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets the pattern's bits, each word by one compare-and-swap (owned: a release store) and only when bits are
     * missing from it.
     *
     * @param words    a region.
     * @param first    the first word of a block in it.
     * @param pattern  the item's pattern for the block.
     * @param perBlock bits per block, 1..10.
     * @return whether some bit was missing (and is now set).
     */
    public static boolean setAt(final MappedWords words, final long first, final long pattern, final int perBlock)
    {
        final int rotation = (int)(pattern >>> 61);
        final int lanes = Math.min(perBlock, BLOCK_WORDS);
        boolean changed = false;
        for (int i = 0; i < lanes; i++)
        {
            final long mask = mask(pattern, i, perBlock);
            final long index = first + ((rotation + i) & (BLOCK_WORDS - 1));
            long word = words.getLongVolatile(index);
            while ((word & mask) != mask)
            {
                if (words.compareAndSetLong(index, word, word | mask))
                {
                    changed = true;
                    break;
                }
                word = words.getLongVolatile(index);
            }
        }
        return changed;
    }

    /** Bit i of the pattern, and bit i + 8 when the item has more than 8 bits in the block (the same word). */
    private static long mask(final long pattern, final int i, final int perBlock)
    {
        final long mask = 1L << (pattern >>> (6 * i));
        return i + BLOCK_WORDS < perBlock ? mask | 1L << (pattern >>> (6 * (i + BLOCK_WORDS))) : mask;
    }

    /** @return B. */
    public long blocks()
    {
        return blocks;
    }

    /** @return k/d, bits per block. */
    public int perBlock()
    {
        return perBlock;
    }

    /** @return d. */
    public int blocksPerItem()
    {
        return blocksPerItem;
    }

    /**
     * @param hash an item's hash.
     * @return whether all its bits are set.
     */
    public boolean contains(final long hash)
    {
        for (int i = 0; i < blocksPerItem; i++)
        {
            if (!containsAt(words, block(hash, i, blocks) * BLOCK_WORDS, pattern(hash, i), perBlock))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets an item's bits.
     *
     * @param hash an item's hash.
     * @return whether some bit was missing: false means the item was (or looked) present and nothing was written.
     */
    public boolean insert(final long hash)
    {
        boolean changed = false;
        for (int i = 0; i < blocksPerItem; i++)
        {
            changed |= setAt(words, block(hash, i, blocks) * BLOCK_WORDS, pattern(hash, i), perBlock);
        }
        return changed;
    }

    /**
     * @param hash an item's hash.
     * @return a plain read of the first word of each of its blocks, which starts their cache misses.
     */
    public long touch(final long hash)
    {
        long sum = words.getLongPlain(block(hash, 0, blocks) * BLOCK_WORDS);
        if (blocksPerItem == 2)
        {
            sum += words.getLongPlain(block(hash, 1, blocks) * BLOCK_WORDS);
        }
        return sum;
    }

    /**
     * The part of block {@code block} among {@code parts} parts of the table: a 4 KiB page of blocks, the pages dealt
     * round, so that each part's writer has whole lines and pages of its own (a parallel replay's lanes).
     *
     * @param block a block index.
     * @param parts the parts.
     * @return its part, 0 to {@code parts - 1}.
     */
    public static int part(final long block, final int parts)
    {
        return (int)((block >>> PAGE_BLOCKS_SHIFT) % parts);
    }

    /**
     * {@link #insert} of the item's blocks that fall in {@code part} ({@link #part}), by its single writer: through
     * the owned view of the words, no locked instruction (a replay's lane, nobody else writing those blocks meanwhile).
     *
     * @param hash  the item's hash.
     * @param part  the writer's part.
     * @param parts the parts.
     */
    public void insertPart(final long hash, final int part, final int parts)
    {
        for (int i = 0; i < blocksPerItem; i++)
        {
            final long block = block(hash, i, blocks);
            if (parts == 1 || part(block, parts) == part)
            {
                setAt(lane, block * BLOCK_WORDS, pattern(hash, i), perBlock);
            }
        }
    }

    /**
     * ORs an item's masks for one block into {@code words} (per word of the block), to be set by {@link #orBlock}
     * with those of other items of the same block: a sorted replay's run of entries of one line.
     *
     * @param pattern  the item's {@link #pattern} for the block.
     * @param perBlock bits per block, 1..10.
     * @param words    8 masks, one per word of the block.
     */
    public static void maskInto(final long pattern, final int perBlock, final long[] words)
    {
        final int rotation = (int)(pattern >>> 61);
        final int lanes = Math.min(perBlock, BLOCK_WORDS);
        for (int i = 0; i < lanes; i++)
        {
            words[rotation + i & BLOCK_WORDS - 1] |= mask(pattern, i, perBlock);
        }
    }

    /**
     * Sets the bits of {@code masks} in one block by its single writer (through the owned view, as
     * {@link #insertPart}: a plain load and, where bits are missing, a release store per word), and zeroes the masks.
     *
     * @param block a block.
     * @param masks 8 masks, one per word of the block ({@link #maskInto}).
     */
    public void orBlock(final long block, final long[] masks)
    {
        final long first = block * BLOCK_WORDS;
        for (int i = 0; i < BLOCK_WORDS; i++)
        {
            final long mask = masks[i];
            if (mask != 0)
            {
                final long word = lane.getLongPlain(first + i);
                if ((word & mask) != mask)
                {
                    lane.putLongRelease(first + i, word | mask);
                }
                masks[i] = 0;
            }
        }
    }

    /**
     * {@link #touch} of the item's blocks that fall in {@code part}.
     *
     * @param hash  the item's hash.
     * @param part  the part.
     * @param parts the parts.
     * @return the words read, summed.
     */
    public long touchPart(final long hash, final int part, final int parts)
    {
        long sum = 0;
        for (int i = 0; i < blocksPerItem; i++)
        {
            final long block = block(hash, i, blocks);
            if (parts == 1 || part(block, parts) == part)
            {
                sum += words.getLongPlain(block * BLOCK_WORDS);
            }
        }
        return sum;
    }

    /** Zeroes every block: not atomic with respect to concurrent inserts. */
    public void clear()
    {
        words.clear();
    }
}
