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
 *
 * and, with a window of time (layout 2.1), the time words, all but the per-slot starts in the first line:
 *
 *   DEADLINE    4   when the next turn or expiry is due (epoch ms); 0 before the filter's time has started
 *   OLDEST      5   the oldest generation still answered
 *   STALE       6   bit s: slot s's current use is not wholly live (lookups read its block states)
 *   STARTED     7   1 once the filter's time has started
 *   TIME_TURNS 8, COUNT_TURNS 9, RECYCLED_EARLY 10, EXPIRED 11   counters
 *   LAST_TIME   12  the filter's time at its latest turn or expiry
 *   START + s   16+ the start time of the generation in slot s (it stops being answered at start + W/L + W)
 * </pre>
 *
 * Block state, 2 bits: LIVE(p) = p, ZEROING(p) = 2 | p, with p = ⌊g / L⌋ mod 2 the parity of the slot's current
 * use (layout 2.1: LIVE(p) = p, CLAIMING = 2, DEAD = 3, see {@link FifoBlocks}). A block whose state is not LIVE(p) holds a recycled generation's bits and reads as empty: recycling a slot
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

    /** Windowed: when the next turn or expiry is due (epoch ms); 0 before the filter's time started. */
    static final int DEADLINE = 4;
    /** Windowed: the oldest generation still answered. */
    static final int OLDEST = 5;
    /** Windowed: bit s set while slot s's current use is not wholly live. */
    static final int STALE = 6;
    /** Windowed: 1 once the filter's time has started (its first call with a time). */
    static final int STARTED = 7;
    /** Windowed counter: generations begun because W / L had passed. */
    static final int TIME_TURNS = 8;
    /** Windowed counter: generations begun because the newest held c new items. */
    static final int COUNT_TURNS = 9;
    /** Windowed counter: generations recycled before their window had passed. */
    static final int RECYCLED_EARLY = 10;
    /** Windowed counter: generations no longer answered because their window had passed. */
    static final int EXPIRED = 11;
    /** Windowed: the filter's time at its latest turn or expiry. */
    static final int LAST_TIME = 12;
    /** Windowed: the start time of the generation in slot s is word START + s. */
    static final int START = 16;
    /** Windowed: the most generation slots the state words have starts for. */
    static final int MAX_TIMED_GENERATIONS = 48;

    /** First word of generation slot 0. */
    static final long GENERATIONS_OFFSET = 0;
    /** Blocks each sweep ticket zeroes at most (4 KiB: about a microsecond of stores). */
    static final long SWEEP_BLOCKS = 64;

    /** Layout 2.0: state ZEROING(p) adds this to LIVE(p). */
    static final int ZEROING = 2;
    /** Layout 2.1: the state of a block being zeroed (by a claim of the slot's current use). */
    static final int CLAIMING = 2;
    /** Layout 2.1: the state of a block stale for every use (what a seal leaves). */
    static final int DEAD = 3;

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
        if (INSERTIONS == READY || READY == SWEPT || SWEPT == SWEEP_DONE || SWEEP_DONE >= STATE_WORDS ||
            DEADLINE != STATE_WORDS || LAST_TIME >= START || START + MAX_TIMED_GENERATIONS != 64)
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
