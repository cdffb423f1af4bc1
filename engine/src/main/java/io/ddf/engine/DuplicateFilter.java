package io.ddf.engine;

import io.ddf.persistence.Syncable;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * A streaming duplicate detector whose state lives in a mapped file.
 *
 * <p>{@code stream} answers {@link Verdict#DUPLICATE} or {@link Verdict#UNSEEN} and updates the state as one atomic
 * step: many threads may share one filter. {@code contains} answers the same question and changes nothing.
 * Shared (the default), an update takes at most one locked instruction (the row's compare-and-swap for the
 * single-word kinds; none for a DUPLICATE that changes nothing), and the counters none for the first 15 threads
 * (each counts in a stripe of its own). Built with {@link FilterBuilder#singleWriter()}, one thread at a time updates
 * each partition and no update takes a locked instruction.
 * An element is its bytes: {@code stream(long)} is the 8 little-endian bytes of the long, and
 * {@code stream(CharSequence)} the UTF-8 bytes of the text, so each equals the {@code byte[]} form of the same bytes.
 * None of these methods allocates.
 *
 * <p>An implementation writes the four {@code hash} forms, {@link #streamHash} and {@link #containsHash}; every
 * {@code stream} and {@code contains} form is {@code streamHash(hash(e))} or {@code containsHash(hash(e))}.
 *
 * <p>A filter with a window of time ({@link FilterBuilder#window(java.time.Duration)}: a fifo-bloom that remembers each
 * element for the window after it was first added, {@link TimeWindow} states the promise) also takes each element's
 * time ({@link #stream(long, long)} and its other forms); every call may first apply what the passage of time has made
 * due (a generation turned, old ones expired; {@code contains} only reads what has expired, it changes nothing), and
 * {@link #timeWindow()} says what the window holds and has done.
 */
public interface DuplicateFilter extends AutoCloseable, Syncable
{
    /**
     * @param element the element, as its 8 little-endian bytes.
     * @return the verdict; the state now records the element.
     */
    default Verdict stream(final long element)
    {
        return streamHash(hash(element));
    }

    /**
     * @param bytes  holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return the verdict.
     */
    default Verdict stream(final byte[] bytes, final int offset, final int length)
    {
        return streamHash(hash(bytes, offset, length));
    }

    /**
     * @param buffer holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return the verdict.
     */
    default Verdict stream(final DirectBuffer buffer, final int offset, final int length)
    {
        return streamHash(hash(buffer, offset, length));
    }

    /**
     * @param text the element, as its UTF-8 bytes.
     * @return the verdict.
     */
    default Verdict stream(final CharSequence text)
    {
        return streamHash(hash(text));
    }

    /**
     * Streams a batch: {@code elements[offset, offset + length)} in order, exactly as that many
     * {@link #stream(long)} calls would (the same verdicts, state and counters), writing whether {@code elements[i]}
     * was judged {@link Verdict#DUPLICATE} to {@code duplicates[i]}. Each element is still one atomic step; another
     * thread's elements may fall between two of the batch's. Every verdict's row is stored before this returns.
     * Faster per element than the calls one by one: the filter overlaps the hashing of neighbouring elements and,
     * when its table is larger than the cache, reads their rows before updating them so that the cache misses
     * overlap ({@code bench/hotpath.sh} measures both).
     *
     * @param elements   the elements, each as its 8 little-endian bytes.
     * @param offset     index of the first.
     * @param length     how many.
     * @param duplicates receives the verdicts, at the elements' indices.
     * @return how many were judged DUPLICATE.
     * @throws IndexOutOfBoundsException when the range does not fit either array.
     */
    default int stream(final long[] elements, final int offset, final int length, final boolean[] duplicates)
    {
        java.util.Objects.checkFromIndexSize(offset, length, elements.length);
        java.util.Objects.checkFromIndexSize(offset, length, duplicates.length);
        int found = 0;
        for (int i = offset; i < offset + length; i++)
        {
            final boolean duplicate = stream(elements[i]) == Verdict.DUPLICATE;
            duplicates[i] = duplicate;
            found += duplicate ? 1 : 0;
        }
        return found;
    }

    /**
     * Streams an element at a given time, for a filter with a window of time ({@link FilterBuilder#window}): the
     * element's own time (event time: a Kafka record's timestamp, a backfilled event's), or any time the caller keeps.
     * The filter's time is the latest it was given or read, and never goes backwards: a time past it first turns
     * and expires generations as the window says ({@link TimeWindow}); an earlier one (a late or out-of-order
     * element) is judged against what the filter holds now and added as of the filter's time, so that a late copy of
     * it is caught too, and it is remembered from then on (not from its own, earlier, time). The form without a time
     * reads the wall clock, or, for an event-time filter ({@link FilterBuilder#eventTime()}), leaves the filter's
     * time as it is.
     *
     * @param element    the element, as its 8 little-endian bytes.
     * @param timeMillis epoch milliseconds, at least 0.
     * @return the verdict.
     * @throws UnsupportedOperationException when the filter has no window of time.
     * @throws IllegalArgumentException      when the time is negative.
     */
    default Verdict stream(final long element, final long timeMillis)
    {
        return streamHash(hash(element), timeMillis);
    }

    /**
     * {@link #stream(long, long)} of a text's UTF-8 bytes.
     *
     * @param text       the element.
     * @param timeMillis epoch milliseconds, at least 0.
     * @return the verdict.
     */
    default Verdict stream(final CharSequence text, final long timeMillis)
    {
        return streamHash(hash(text), timeMillis);
    }

    /**
     * {@link #stream(long, long)} of bytes.
     *
     * @param bytes      holds the element.
     * @param offset     of its first byte.
     * @param length     of the element in bytes.
     * @param timeMillis epoch milliseconds, at least 0.
     * @return the verdict.
     */
    default Verdict stream(final byte[] bytes, final int offset, final int length, final long timeMillis)
    {
        return streamHash(hash(bytes, offset, length), timeMillis);
    }

    /**
     * {@link #stream(long, long)} of a buffer's bytes.
     *
     * @param buffer     holds the element.
     * @param offset     of its first byte.
     * @param length     of the element in bytes.
     * @param timeMillis epoch milliseconds, at least 0.
     * @return the verdict.
     */
    default Verdict stream(final DirectBuffer buffer, final int offset, final int length, final long timeMillis)
    {
        return streamHash(hash(buffer, offset, length), timeMillis);
    }

    /**
     * Split-phase streaming at a given time: {@code streamHash(hash(e), t)} is {@code stream(e, t)}.
     *
     * @param hash       an element's hash from {@link #hash}.
     * @param timeMillis epoch milliseconds, at least 0.
     * @return the verdict.
     * @throws UnsupportedOperationException when the filter has no window of time.
     */
    default Verdict streamHash(final long hash, final long timeMillis)
    {
        throw new UnsupportedOperationException(kind().cliName() + " has no window of time: build it with " +
            "FilterBuilder.window(Duration) to stream elements with their times");
    }

    /**
     * Streams a batch, each element at its own time: exactly as that many {@link #stream(long, long)} calls would.
     *
     * @param elements    the elements, each as its 8 little-endian bytes.
     * @param timesMillis {@code timesMillis[i]} is {@code elements[i]}'s time, epoch milliseconds, at least 0.
     * @param offset      index of the first.
     * @param length      how many.
     * @param duplicates  receives the verdicts, at the elements' indices.
     * @return how many were judged DUPLICATE.
     * @throws IndexOutOfBoundsException     when the range does not fit the arrays.
     * @throws UnsupportedOperationException when the filter has no window of time.
     */
    default int stream(final long[] elements, final long[] timesMillis, final int offset, final int length,
        final boolean[] duplicates)
    {
        java.util.Objects.checkFromIndexSize(offset, length, elements.length);
        java.util.Objects.checkFromIndexSize(offset, length, timesMillis.length);
        java.util.Objects.checkFromIndexSize(offset, length, duplicates.length);
        int found = 0;
        for (int i = offset; i < offset + length; i++)
        {
            final boolean duplicate = stream(elements[i], timesMillis[i]) == Verdict.DUPLICATE;
            duplicates[i] = duplicate;
            found += duplicate ? 1 : 0;
        }
        return found;
    }

    /**
     * @return the filter's window of time and what it has done (turns, expiries, elements forgotten early, what the
     *     last open expired), read now; empty for a filter that forgets by count only, or not at all.
     */
    default java.util.Optional<TimeWindow> timeWindow()
    {
        return java.util.Optional.empty();
    }

    /**
     * @param element the element.
     * @return whether {@link #stream(long)} would answer DUPLICATE now; nothing is inserted.
     */
    default boolean contains(final long element)
    {
        return containsHash(hash(element));
    }

    /**
     * @param bytes  holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return whether stream would answer DUPLICATE now; nothing is inserted.
     */
    default boolean contains(final byte[] bytes, final int offset, final int length)
    {
        return containsHash(hash(bytes, offset, length));
    }

    /**
     * @param buffer holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return whether stream would answer DUPLICATE now; nothing is inserted.
     */
    default boolean contains(final DirectBuffer buffer, final int offset, final int length)
    {
        return containsHash(hash(buffer, offset, length));
    }

    /**
     * @param text the element.
     * @return whether stream would answer DUPLICATE now; nothing is inserted.
     */
    default boolean contains(final CharSequence text)
    {
        return containsHash(hash(text));
    }

    /**
     * Split-phase streaming, first half: the element's hash under this filter's seed or key. Every form of the same
     * bytes hashes alike.
     *
     * @param element the element, as its 8 little-endian bytes.
     * @return the hash {@link #streamHash} takes.
     */
    long hash(long element);

    /**
     * @param bytes  holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return the hash {@link #streamHash} takes.
     */
    long hash(byte[] bytes, int offset, int length);

    /**
     * @param buffer holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return the hash {@link #streamHash} takes.
     */
    long hash(DirectBuffer buffer, int offset, int length);

    /**
     * @param text the element, as its UTF-8 bytes.
     * @return the hash {@link #streamHash} takes.
     */
    long hash(CharSequence text);

    /**
     * Split-phase streaming, second half: {@code streamHash(hash(e))} is {@code stream(e)}.
     *
     * @param hash an element's hash from {@link #hash}.
     * @return the verdict; the state now records the element.
     */
    Verdict streamHash(long hash);

    /**
     * Split-phase streaming, optional middle: starts reading the state {@link #streamHash} of this hash will need (a
     * plain read of its row), changing nothing, so that a caller holding several elements can touch their rows
     * first and have their cache misses overlap (what the batch {@code stream} and the pipeline's prefetch do).
     * Kinds that do not say where their state is do nothing.
     *
     * @param hash an element's hash from {@link #hash}.
     * @return a value read, or 0: fold it into something the program uses, or the read may be optimised away.
     */
    default long touchHash(final long hash)
    {
        return 0;
    }

    /**
     * @param hash an element's hash from {@link #hash}.
     * @return whether the element would be judged DUPLICATE now; nothing changes.
     */
    boolean containsHash(long hash);

    /**
     * @return whether the filter keeps one entry per insertion that it can find again (the cuckoo filter, not
     *         windowed), so that {@link #addHash}, {@link #deleteHash} and {@link #countHash} work.
     */
    default boolean counting()
    {
        return false;
    }

    /**
     * Inserts one more copy of the element whether or not it is present (RedisBloom's CF.ADD); atomic like
     * {@link #streamHash}.
     *
     * @param hash an element's hash from {@link #hash}.
     * @throws UnsupportedOperationException when the filter is not {@link #counting}.
     */
    default void addHash(final long hash)
    {
        throw new UnsupportedOperationException(kind().cliName() + " cannot add copies");
    }

    /**
     * Deletes one copy of the element (RedisBloom's CF.DEL). Deleting an element never added may delete another
     * whose entry collides with it, as in any cuckoo filter.
     *
     * @param hash an element's hash from {@link #hash}.
     * @return whether a copy was found and deleted.
     * @throws UnsupportedOperationException when the filter is not {@link #counting}.
     */
    default boolean deleteHash(final long hash)
    {
        throw new UnsupportedOperationException(kind().cliName() + " cannot delete");
    }

    /**
     * @param hash an element's hash from {@link #hash}.
     * @return how many copies of it may be present (RedisBloom's CF.COUNT: collisions count too).
     * @throws UnsupportedOperationException when the filter is not {@link #counting}.
     */
    default int countHash(final long hash)
    {
        throw new UnsupportedOperationException(kind().cliName() + " cannot count copies");
    }

    /** @return copies deleted by {@link #deleteHash} over the file's lifetime; 0 when not {@link #counting}. */
    default long deletions()
    {
        return 0;
    }

    /**
     * @return whether elements of different {@link #partition}s touch disjoint state and each element's verdict
     *         depends only on its partition's history (true for the quotient filters, whose partitions are rows).
     *         Handlers owning disjoint partitions and taking their elements in stream order then reproduce the
     *         sequential verdicts exactly.
     */
    boolean partitioned();

    /**
     * @param hash an element's hash from {@link #hash}.
     * @return its partition; 0 for a filter that is not {@link #partitioned}.
     */
    long partition(long hash);

    /**
     * @return whether the filter was opened in single-writer mode ({@link FilterBuilder#singleWriter()}): one
     *         thread at a time updates each {@link #partition}, and updates take no locked instruction.
     */
    default boolean singleWriter()
    {
        return false;
    }

    /**
     * @return the kind the filter was built as: for a sliding-window filter ({@code .window(w).subfilters(L)}), the
     *         kind of its subfilters, the kind it windows ({@code parameters().kind()} is then
     *         {@link FilterKind#QUEUE}, the queuing construction, and {@code parameters()} holds the window).
     */
    FilterKind kind();

    /** @return the parameters it was built with, as read from its file header. */
    FilterParameters parameters();

    /** @return number of elements streamed over the file's lifetime (once closed: as the close left them). */
    long elements();

    /** @return number of those judged DUPLICATE (once closed: as the close left them). */
    long duplicates();

    /** @return the file holding the state, or null when anonymous. */
    Path path();

    /**
     * Forces the whole file to the storage device, whatever the sync policy: hashes the table and state into the
     * header's checksum, then {@code msync}s every page and {@code fsync}s the file, so its cost grows with the file
     * (a hash of every byte, and every dirty page written), not with what changed; {@link #sync()} forces only the
     * pages that changed. Thread-safe: other threads may stream meanwhile (their changes made before the call are
     * forced; the checksum of a file still being written is not a seal, the file stays unsealed until
     * {@link #close()}), and a concurrent {@link #close()} waits for it.
     *
     * @throws IllegalStateException when the filter is closed.
     * @throws io.ddf.persistence.FilterFileException when the file cannot be forced (the device's error).
     */
    void flush();

    /** @return when this filter's changes reach the device; {@link SyncPolicy#NO} for an anonymous file. */
    default SyncPolicy syncPolicy()
    {
        return SyncPolicy.NO;
    }

    /**
     * Forces what changed since the last sync to the device now, whatever the policy: the changed pages only, with
     * one {@code msync}, and nothing at all when nothing changed (under {@link SyncPolicy#NO}, which tracks nothing,
     * the whole file, as {@link #flush()}). Returns once every change made before the call is on the device. Safe
     * from any thread while others stream.
     *
     * @return the changed 4 KiB pages forced (0: the header page only), or -1 when nothing needed forcing.
     * @throws io.ddf.persistence.FilterFileException when the sync fails (the changes stay to be synced).
     */
    default long sync()
    {
        flush();
        return 0;
    }

    /**
     * @return the time, epoch milliseconds, before which every change this filter acknowledged is on the device, as
     *         of its last completed sync; 0 when unknown.
     */
    default long durableSince()
    {
        return 0;
    }

    /** @return how the file was left before this filter opened it: what a power cut may have taken from it. */
    default LastClose lastClose()
    {
        return new LastClose(LastClose.Kind.CREATED, 0);
    }

    /**
     * @return what opening this filter did with its change log (FORMAT-LOG.md): nothing to replay (created, closed
     *         cleanly, same boot), records replayed and how long, or {@code NOT_LOGGED} for a filter not written
     *         through a log (sync policy {@code no}, an anonymous file).
     */
    default io.ddf.persistence.log.Recovery recovery()
    {
        return io.ddf.persistence.log.Recovery.of(io.ddf.persistence.log.Recovery.Outcome.NOT_LOGGED, 0, 0);
    }

    /**
     * Checkpoints a filter written through a change log (FORMAT-LOG.md, "Checkpoints"): its pages forced, then the
     * log position a replay would start from recorded in its header, so that the log before it can be dropped.
     * Writers never wait for it. A filter not written through a log has none.
     *
     * @return what it did.
     * @throws UnsupportedOperationException when the filter is not written through a log.
     */
    default io.ddf.persistence.log.Checkpoint checkpoint()
    {
        throw new UnsupportedOperationException("this filter is not written through a change log");
    }

    /** @return the change log this filter is written through, or null. */
    default io.ddf.persistence.log.ChangeLog changeLog()
    {
        return null;
    }

    /**
     * Closes the filter, sealing its file, and unmaps it; the state stays in the file. Thread-safe, and safe while
     * other threads call the filter: from the moment it begins, new calls throw {@link IllegalStateException}
     * ("filter is closed"); it waits for the calls already under way to return, then seals: hashes the whole table
     * and state into the header's checksum and, when they changed since the file was opened, forces every page to
     * the device ({@code msync}, {@code fsync}) before setting the seal. So its cost grows with the file (a hash of
     * every byte: tens of milliseconds a gigabyte) plus the write-back of what changed; an unchanged file costs the
     * hash only. The next open finds the seal and checks the checksum instead of the structure. Idempotent: a second
     * close, from any thread, waits for the first to finish. {@link Filters#closeAll} closes many with one
     * file-system sync.
     *
     * @throws io.ddf.persistence.FilterFileException when the file cannot be sealed (truncated from outside, or the
     *                                                device fails): it is unmapped anyway and left unsealed, and its
     *                                                next open checks its structure as after a crash.
     */
    @Override
    void close();
}
