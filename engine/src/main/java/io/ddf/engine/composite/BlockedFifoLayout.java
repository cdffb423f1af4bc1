package io.ddf.engine.composite;

/**
 * Where the blocked fifo-bloom (format 2.0 of kind 18, {@code FORMAT-FIFO-BLOOM.md}) keeps what, in one place: the
 * table's regions by chained offsets, the header state words, and the block states of the lazy clearing.
 *
 * <pre>
 * table (words from the table's start; B blocks per generation, L generations, every region line-aligned)
 *
 *   GENERATIONS_OFFSET = 0                                   generation slot 0: B blocks of 8 words
 *                        + g · generationWords(B)            generation slot g
 *   mapsOffset(B, L)   = L · generationWords(B)              block-state map of slot 0: 2 bits per block
 *                        + g · mapWords(B)                   block-state map of slot g
 *   tableWords(B, L)   = mapsOffset(B, L) + L · mapWords(B)  end
 *
 * header state words (the kind's 64 words after the counters)
 *
 *   INSERTIONS  0   items inserted (tickets claimed): item t is generation ⌊t / c⌋ in slot ⌊t / c⌋ mod L
 *   READY       1   the newest generation published (its slot may take inserts)
 *   SWEPT       2   the newest generation whose slot is wholly live (no block-state map to read)
 *   SWEEP_DONE  3   sweep tickets of generation READY finished
 * </pre>
 *
 * Block state, 2 bits: LIVE(p) = p, ZEROING(p) = 2 | p, with p = ⌊g / L⌋ mod 2 the parity of the slot's current
 * use. A block whose state is not LIVE(p) holds a recycled generation's bits and reads as empty: recycling a slot
 * flips its parity and so makes every block stale without writing anything.
 */
final class BlockedFifoLayout
{
    /** Words per block (a 64-byte line). */
    static final int BLOCK_WORDS = 8;
    /** Words per cache line. */
    static final int LINE_WORDS = 8;
    /** Block states per map word. */
    static final int STATES_PER_WORD = 32;

    /** Header state word: items inserted. */
    static final int INSERTIONS = 0;
    /** Header state word: the newest generation published. */
    static final int READY = 1;
    /** Header state word: the newest generation whose slot is wholly live. */
    static final int SWEPT = 2;
    /** Header state word: sweep tickets of the newest generation finished. */
    static final int SWEEP_DONE = 3;
    /** Header state words used. */
    static final int STATE_WORDS = 4;

    /** First word of generation slot 0. */
    static final long GENERATIONS_OFFSET = 0;
    /** Blocks each sweep ticket zeroes at most (4 KiB: about a microsecond of stores). */
    static final long SWEEP_BLOCKS = 64;

    /** State ZEROING adds this to LIVE(p). */
    static final int ZEROING = 2;

    static
    {
        // static self-check: blocks are whole lines, a map word holds whole states, the state words are distinct
        if (BLOCK_WORDS * Long.BYTES != 64 || LINE_WORDS * Long.BYTES != 64 || STATES_PER_WORD * 2 != Long.SIZE)
        {
            throw new ExceptionInInitializerError("blocked fifo-bloom layout constants are inconsistent");
        }
        if (generationWords(1) % LINE_WORDS != 0 || mapWords(1) % LINE_WORDS != 0 ||
            mapsOffset(3, 2) != GENERATIONS_OFFSET + 2 * generationWords(3) ||
            tableWords(3, 2) != mapsOffset(3, 2) + 2 * mapWords(3) || mapWords(STATES_PER_WORD * LINE_WORDS) !=
            LINE_WORDS || mapWords(STATES_PER_WORD * LINE_WORDS + 1) != 2 * LINE_WORDS)
        {
            throw new ExceptionInInitializerError("blocked fifo-bloom layout offsets do not chain");
        }
        if (INSERTIONS == READY || READY == SWEPT || SWEPT == SWEEP_DONE || SWEEP_DONE >= STATE_WORDS)
        {
            throw new ExceptionInInitializerError("blocked fifo-bloom state words overlap");
        }
    }

    private BlockedFifoLayout()
    {
    }

    /** @return words of one generation slot: B blocks. */
    static long generationWords(final long blocks)
    {
        return blocks * BLOCK_WORDS;
    }

    /** @return words of one slot's block-state map, whole lines. */
    static long mapWords(final long blocks)
    {
        final long words = (blocks + STATES_PER_WORD - 1) / STATES_PER_WORD;
        return (words + LINE_WORDS - 1) / LINE_WORDS * LINE_WORDS;
    }

    /** @return first word of slot g's blocks. */
    static long generationOffset(final long blocks, final int slot)
    {
        return GENERATIONS_OFFSET + slot * generationWords(blocks);
    }

    /** @return first word of the maps. */
    static long mapsOffset(final long blocks, final int generations)
    {
        return GENERATIONS_OFFSET + generations * generationWords(blocks);
    }

    /** @return first word of slot g's map. */
    static long mapOffset(final long blocks, final int generations, final int slot)
    {
        return mapsOffset(blocks, generations) + slot * mapWords(blocks);
    }

    /** @return the table's words. */
    static long tableWords(final long blocks, final int generations)
    {
        return mapsOffset(blocks, generations) + generations * mapWords(blocks);
    }

    /** @return the parity of generation g's use of its slot. */
    static int parity(final long generation, final int generations)
    {
        return (int)((generation / generations) & 1);
    }
}
