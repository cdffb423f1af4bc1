package io.ddf.engine.memory;

import io.ddf.persistence.DirtyPages;
import io.ddf.persistence.platform.MappingAdvice;
import io.ddf.persistence.platform.RawMemory;

/**
 * Flyweight over a region of 64-bit words in mapped memory, addressed by word index, with the memory ordering
 * in each method's name. Absolute addresses and long indexes, so tables may exceed 2 GiB.
 *
 * <p>A region is <em>shared</em> (the default) or <em>owned</em>. Shared, {@link #compareAndSetLong} and
 * {@link #getAndAddLong} are locked instructions, safe for any number of writers. Owned, the caller promises that
 * one thread at a time writes each word (the single-writer mode of a filter): the same two methods become a plain
 * load, a compare and a release (ordered) store, with no locked instruction. A second writer is then a misuse that
 * may lose updates but never faults or spins forever: every word still holds a value some writer stored. Release
 * stores keep the order of one thread's stores to the mapping, which is what crash safety rests on (a kill -9
 * loses nothing stored, and no later store is visible without the earlier ones).
 *
 * <p>A region may also be <em>tracked</em>: every store marks its page in the file's {@link DirtyPages} (one release
 * store of a constant byte, after the store it marks), so that a sync forces only the pages that changed. Untracked
 * (sync policy {@code no}, anonymous files), the stores pay one never-taken branch.
 *
 * <p>The loads and stores are {@link RawMemory}'s (no Agrona: the engine runs with Agrona 1.x or 2.x).
 *
 * <p>Index checks follow Agrona's switch: on unless {@code agrona.disable.bounds.checks=true}, so tests check
 * and benchmarks can run without.
 */
public final class MappedWords
{
    private static final boolean SHOULD_BOUNDS_CHECK = !Boolean.getBoolean("agrona.disable.bounds.checks");

    private final long address;
    private final long words;
    private final boolean owned;
    /** The file's page marks, or null when untracked. */
    private final DirtyPages dirty;

    /**
     * A shared region.
     *
     * @param address absolute address of word 0, 8-byte aligned.
     * @param words   number of words in the region.
     */
    public MappedWords(final long address, final long words)
    {
        this(address, words, false);
    }

    /**
     * @param address absolute address of word 0, 8-byte aligned.
     * @param words   number of words in the region.
     * @param owned   whether one thread at a time writes each word (see the class comment).
     */
    public MappedWords(final long address, final long words, final boolean owned)
    {
        this(address, words, owned, null);
    }

    /**
     * @param address absolute address of word 0, 8-byte aligned.
     * @param words   number of words in the region.
     * @param owned   whether one thread at a time writes each word (see the class comment).
     * @param dirty   the marks of the file holding the region, set after every store; null for none.
     */
    public MappedWords(final long address, final long words, final boolean owned, final DirtyPages dirty)
    {
        if ((address & 7) != 0)
        {
            throw new IllegalArgumentException("address must be 8-byte aligned: " + address);
        }
        this.address = address;
        this.words = words;
        this.owned = owned;
        this.dirty = dirty;
    }

    /** @return whether the region is owned: updates are plain loads and release stores (see the class comment). */
    public boolean owned()
    {
        return owned;
    }

    /** @return number of words. */
    public long words()
    {
        return words;
    }

    /**
     * @param index word index.
     * @return the word, read with volatile (acquire) semantics.
     */
    public long getLongVolatile(final long index)
    {
        return RawMemory.getLongVolatile(addressOf(index));
    }

    /**
     * @param index word index.
     * @return the word, read plainly.
     */
    public long getLongPlain(final long index)
    {
        return RawMemory.getLongPlain(addressOf(index));
    }

    /**
     * @param index word index.
     * @param value stored plainly.
     */
    public void putLongPlain(final long index, final long value)
    {
        final long at = addressOf(index);
        RawMemory.putLongPlain(at, value);
        marked(at);
    }

    /**
     * @param index word index.
     * @param value stored with release (ordered) semantics.
     */
    public void putLongRelease(final long index, final long value)
    {
        final long at = addressOf(index);
        RawMemory.putLongRelease(at, value);
        marked(at);
    }

    /**
     * @param index    word index.
     * @param expected the value the word must hold.
     * @param update   the value to install.
     * @return whether the word held {@code expected} and now holds {@code update}; owned, without a locked
     *         instruction (a plain load, a compare, a release store).
     */
    public boolean compareAndSetLong(final long index, final long expected, final long update)
    {
        final long at = addressOf(index);
        if (owned)
        {
            // The owner is the only writer, so the word cannot change between this load and the store; the load
            // still guards a misused second writer from overwriting a word it did not read (its loop retries).
            if (RawMemory.getLongPlain(at) != expected)
            {
                return false;
            }
            RawMemory.putLongRelease(at, update);
            marked(at);
            return true;
        }
        if (RawMemory.compareAndSetLong(at, expected, update))
        {
            marked(at);
            return true;
        }
        return false;
    }

    /**
     * @param index word index.
     * @param delta added atomically (shared), or by a plain load and a release store (owned).
     * @return the word's value before the addition.
     */
    public long getAndAddLong(final long index, final long delta)
    {
        final long at = addressOf(index);
        if (owned)
        {
            final long value = RawMemory.getLongPlain(at);
            RawMemory.putLongRelease(at, value + delta);
            marked(at);
            return value;
        }
        final long value = RawMemory.getAndAddLong(at, delta);
        marked(at);
        return value;
    }

    /**
     * @param fromWord first word of the slice.
     * @param count    number of words.
     * @return a flyweight over words [fromWord, fromWord + count) of this region, owned when this one is.
     */
    public MappedWords slice(final long fromWord, final long count)
    {
        if (fromWord < 0 || count < 0 || fromWord + count > words)
        {
            throw new IndexOutOfBoundsException("slice " + fromWord + "+" + count + " outside 0.." + words);
        }
        return new MappedWords(address + (fromWord << 3), count, owned, dirty);
    }

    /**
     * @param fromWord first word of the slice.
     * @param count    number of words.
     * @return a shared flyweight over words [fromWord, fromWord + count) of this region, owned or not: for a lock
     *         word that must stay a real lock in single-writer mode (a structure whose lost updates would corrupt
     *         its links, not only lose an element).
     */
    public MappedWords sharedSlice(final long fromWord, final long count)
    {
        final MappedWords slice = slice(fromWord, count);
        return owned ? new MappedWords(slice.address, count, false, dirty) : slice;
    }

    /**
     * @return an owned flyweight over the same words, shared or not: for a caller that is, for a while, the only
     *         writer of the words it updates through it (a parallel replay's lane, the single writer of its pages).
     */
    public MappedWords ownedView()
    {
        return owned ? this : new MappedWords(address, words, true, dirty);
    }

    /**
     * Makes every 4 KiB page of words [fromWord, fromWord + count) writable in the page tables now, changing no word:
     * {@link MappingAdvice#touchForWrite}, one locked add of 0 to each page's first word (locked even when owned: a
     * single atomic read-modify-write that stores what the word holds, so that no store of another thread can fall
     * between its read and its write). The first store into a page after it was mapped read-only (a read first, or a
     * writeback) takes a write fault, and on a huge-page mapping of a file a split of the 2 MiB mapping and the file
     * system's page_mkwrite; a thread that knows which pages a latency-critical call will store into next takes those
     * faults for it. Not marked dirty: no word changes.
     *
     * @param fromWord first word.
     * @param count    words.
     * @return pages touched.
     */
    public long touchForWrite(final long fromWord, final long count)
    {
        return count <= 0 ? 0 : MappingAdvice.touchForWrite(addressOf(fromWord), count << 3);
    }

    /** Zeroes every word, with plain stores; not atomic with respect to concurrent updates. */
    public void clear()
    {
        RawMemory.setMemory(address, words << 3, (byte)0);
        if (dirty != null && words > 0)
        {
            dirty.markRange(address, words << 3);
        }
    }

    /** @return whether stores are marked in a file's {@link DirtyPages}. */
    public boolean tracked()
    {
        return dirty != null;
    }

    /** After a store at {@code at}: marks its page when tracked. */
    private void marked(final long at)
    {
        if (dirty != null)
        {
            dirty.mark(at);
        }
    }

    private long addressOf(final long index)
    {
        if (SHOULD_BOUNDS_CHECK && (index < 0 || index >= words))
        {
            throw new IndexOutOfBoundsException("word " + index + " outside 0.." + (words - 1));
        }
        return address + (index << 3);
    }
}
