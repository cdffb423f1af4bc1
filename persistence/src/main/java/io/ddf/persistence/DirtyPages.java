package io.ddf.persistence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Which pages of a mapped filter file were written since they were last synced: one byte per 4 KiB page, set by
 * the write paths, taken (read and cleared) by the sync ({@link FilterFile#syncChanges}), so that a sync forces only
 * what changed and skips an unchanged file without a system call.
 *
 * <p>Marking is one release store of the constant 1, after the store it marks: no locked instruction, no read, and
 * idempotent, so any number of threads may mark the same page (a bitmap would need an atomic OR, since two threads
 * setting bits of one word with plain stores lose each other's). Release keeps the marked store before the mark on
 * every CPU (on x86 it is a plain store).
 *
 * <p>The protocol, and why a change is never lost: a writer stores its change, then the mark. The sync takes a page
 * with an atomic exchange (mark to 0), then forces the page. If the exchange read the writer's mark, the writer's
 * change happens-before the exchange (release/acquire), so it is in the page the sync forces. If the exchange ran
 * before the writer's mark, the mark stays set for the next sync. A page is thus forced, after every change to it,
 * by the first sync that starts after the change's mark; a sync that finds another sync running waits for it (the
 * file's lock), so a writer's own sync returns only once its change is on the device.
 */
public final class DirtyPages
{
    /** The page size the marks count in: 4 KiB, the smallest page of any platform (a larger page is whole marks). */
    public static final int PAGE_SHIFT = 12;
    private static final byte MARKED = 1;
    private static final VarHandle MARKS = MethodHandles.arrayElementVarHandle(byte[].class);
    /** Eight marks at once, to skip clean stretches quickly. */
    private static final VarHandle EIGHT_MARKS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final long base;
    private final byte[] marks;

    /**
     * @param base   address of the file's first byte in the mapping.
     * @param length mapped bytes, a multiple of 4 KiB.
     */
    DirtyPages(final long base, final long length)
    {
        final long pages = length >>> PAGE_SHIFT;
        if (pages > Integer.MAX_VALUE - 8 || (length & ((1L << PAGE_SHIFT) - 1)) != 0)
        {
            throw new IllegalArgumentException("cannot track " + length + " bytes in 4 KiB pages");
        }
        this.base = base;
        // rounded up to whole longs, so that the scan reads eight marks at a time; the extra marks stay 0
        this.marks = new byte[(int)((pages + 7) & ~7L)];
    }

    /**
     * Marks the page holding {@code address} as changed: call after the store that changed it.
     *
     * @param address an address inside the mapping.
     */
    public void mark(final long address)
    {
        MARKS.setRelease(marks, (int)((address - base) >>> PAGE_SHIFT), MARKED);
    }

    /**
     * Marks every page of a range as changed: call after the stores.
     *
     * @param address first byte.
     * @param bytes   length, positive.
     */
    public void markRange(final long address, final long bytes)
    {
        final int first = (int)((address - base) >>> PAGE_SHIFT);
        final int last = (int)((address + bytes - 1 - base) >>> PAGE_SHIFT);
        for (int page = first; page <= last; page++)
        {
            MARKS.setRelease(marks, page, MARKED);
        }
    }

    /** @return the pages tracked (the file's length in 4 KiB pages). */
    public int pages()
    {
        return marks.length;
    }

    /**
     * Takes every marked page: clears each mark with an atomic exchange and reports the span they cover.
     *
     * @return the span of the pages taken, or {@link Span#NONE} when none was marked.
     */
    Span take()
    {
        int first = -1;
        int last = -1;
        int count = 0;
        for (int i = 0; i < marks.length; i += Long.BYTES)
        {
            if ((long)EIGHT_MARKS.getOpaque(marks, i) == 0)
            {
                continue;
            }
            for (int page = i; page < i + Long.BYTES; page++)
            {
                if ((byte)MARKS.getAndSet(marks, page, (byte)0) != 0)
                {
                    first = first < 0 ? page : first;
                    last = page;
                    count++;
                }
            }
        }
        return count == 0 ? Span.NONE : new Span(first, last, count);
    }

    /**
     * Marks again the pages of a span whose sync failed, so that the next sync tries them again.
     *
     * @param span what {@link #take()} returned.
     */
    void restore(final Span span)
    {
        for (int page = span.first(); page <= span.last() && page >= 0; page++)
        {
            MARKS.setRelease(marks, page, MARKED);
        }
    }

    /**
     * The pages one {@link #take()} found marked.
     *
     * @param first first marked page, or -1.
     * @param last  last marked page, or -1.
     * @param count how many were marked.
     */
    record Span(int first, int last, int count)
    {
        static final Span NONE = new Span(-1, -1, 0);

        /** @return whether no page was marked. */
        boolean empty()
        {
            return count == 0;
        }
    }
}
