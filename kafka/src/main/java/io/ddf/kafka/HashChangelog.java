package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.engine.tune.ChangelogCost;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * The changelog of hashes ({@link ChangelogFormat#HASHES}): about one small record's worth of bytes per element
 * judged new, however many words its insertion changes.
 *
 * <ul>
 *   <li>Each element judged UNSEEN adds its 64-bit hash to a batch; a batch is logged when it holds
 *       {@value #BATCH} hashes and at each commit, as one record keyed ({@code 'H'}, epoch, seq). Replayed in
 *       order into the table they followed, the hashes give the same table bytes: for these kinds a DUPLICATE
 *       changes no table word and an insertion depends only on the hash and the words it changes
 *       ({@link ChangelogCost#REPLAYABLE}).</li>
 *   <li>When the hashes logged since the last snapshot reach the table's size ({@link ChangelogCost#SNAPSHOT_RATIO}),
 *       the commit logs a snapshot: the table in chunks of {@value #CHUNK_WORDS} words keyed
 *       ({@code 'S'}, parity, first word), then a marker ({@code 'C'}) with its ordinal, then deletes (null values) for
 *       the batches it covers. The epoch becomes the snapshot's ordinal. Snapshots alternate between two key
 *       ranges (the parity), so the last complete snapshot is never overwritten by a newer one cut short by a
 *       crash: whatever compaction removed, the topic holds one complete snapshot followed by every batch logged
 *       since, and replaying the topic in order (older records are overwritten by that snapshot) gives the
 *       table. Compaction thus bounds the topic by about three tables.</li>
 *   <li>The header words (the counters) are logged as word records when they changed, from a copy of what the
 *       changelog holds; a replay leaves them alone.</li>
 * </ul>
 * The writer's position (epoch, next batch number, hashes since the snapshot) is read back from the records, and
 * kept in {@code <store>.ddf.changelog} when Kafka Streams checkpoints and at close, for a restart that restores only
 * from its checkpoint. A file that was not closed cleanly may hold more than the changelog (at-least-once): its
 * first commit logs a whole snapshot.
 *
 * <p>The changelog of calls ({@link ChangelogFormat#CALLS}, a fifo-bloom with a window of time) is the same with
 * every call in the batches instead of the new elements' hashes: each call's hash and time ({@code 'T'} records,
 * {@link ChangelogKeys#putCall}), about 10 bytes each; its snapshots come when the calls' bytes since the last one
 * reach the table's bytes. A replay streams each call again with its time, and the filter's words follow exactly as
 * the writer's did (one writer, event time: its calls are its only input), header words included; so no header word
 * is logged at a commit, only all of them with each snapshot, before its marker.
 */
final class HashChangelog extends StoreChangelog
{
    /** Hashes per batch record at most (64 KiB of value). */
    static final int BATCH = 8192;
    /** Table words per snapshot chunk record (64 KiB of value). */
    static final int CHUNK_WORDS = 8192;
    /** Suffix of the file that keeps the writer's position. */
    static final String STATE_SUFFIX = ".ddf.changelog";
    private static final long MAX_SEQ = 0xFFFF_FFFFL;

    private final StoreChangelog.Sink sink;
    private final boolean calls;
    private final long[] loggedHeader;
    private final long[] pending;
    private final byte[] pendingCalls;
    private int pendingBytes;
    private long previousTime;
    private final long snapshotEvery;
    private final long tableWords;
    private final int chunkWords;
    private Path stateFile;
    private int pendingCount;
    private long ordinal;
    private long nextSeq;
    private long sinceSnapshot;
    private boolean snapshotDue;

    /**
     * @param store  the store's name.
     * @param filter the filter, of a kind in {@link ChangelogCost#REPLAYABLE}.
     * @param sink   where batches go when they fill up between commits.
     */
    HashChangelog(final String store, final DuplicateFilter filter, final StoreChangelog.Sink sink)
    {
        this(store, filter, sink, CHUNK_WORDS, false);
    }

    /**
     * @param store  the store's name.
     * @param filter the filter: of a kind in {@link ChangelogCost#REPLAYABLE}, or (calls) a fifo-bloom.
     * @param sink   where batches go when they fill up between commits.
     * @param calls  true for the changelog of calls, false for the changelog of hashes.
     */
    HashChangelog(final String store, final DuplicateFilter filter, final StoreChangelog.Sink sink, final boolean calls)
    {
        this(store, filter, sink, CHUNK_WORDS, calls);
    }

    /**
     * @param store      the store's name.
     * @param filter     the filter.
     * @param sink       where full batches go.
     * @param chunkWords table words per snapshot record (tests use small ones, to cut snapshots short).
     * @param calls      true for the changelog of calls, false for the changelog of hashes.
     */
    HashChangelog(final String store, final DuplicateFilter filter, final StoreChangelog.Sink sink, final int chunkWords,
        final boolean calls)
    {
        super(store, filter);
        this.chunkWords = chunkWords;
        this.sink = sink;
        this.calls = calls;
        this.loggedHeader = new long[headerWords];
        this.tableWords = live.words() - headerWords;
        this.pending = calls ? null : new long[BATCH];
        this.pendingCalls = calls ? new byte[BATCH * ChangelogKeys.MAX_CALL_BYTES] : null;
        // hashes since the snapshot, or bytes of calls since the snapshot
        this.snapshotEvery = Math.max(1, (long)(ChangelogCost.SNAPSHOT_RATIO * tableWords * (calls ? Long.BYTES : 1)));
    }

    @Override
    void opened(final boolean existed, final boolean clean, final Path dir)
    {
        stateFile = dir.resolve(store + STATE_SUFFIX);
        if (existed && Files.exists(stateFile))
        {
            readState();
        }
        if (!existed || clean)
        {
            for (int i = 0; i < headerWords; i++)
            {
                loggedHeader[i] = live.getPlain(i);
            }
        }
        // else: the file may be ahead of the changelog; its header is logged whole, its table as a snapshot
        snapshotDue = existed && !clean;
    }

    @Override
    void streamed(final long hash, final long time, final Verdict verdict)
    {
        if (calls)
        {
            final long t = time < 0 ? 0 : time + 1;
            pendingBytes = ChangelogKeys.putCall(pendingCalls, pendingBytes, hash, t, previousTime);
            previousTime = t;
            if (++pendingCount == BATCH)
            {
                logBatch(sink);
            }
        }
        else if (verdict == Verdict.UNSEEN)
        {
            pending[pendingCount++] = hash;
            if (pendingCount == BATCH)
            {
                logBatch(sink);
            }
        }
    }

    @Override
    void commit(final StoreChangelog.Sink out)
    {
        logBatch(out);
        if (snapshotDue || sinceSnapshot >= snapshotEvery)
        {
            snapshot(out);
        }
        if (calls)
        {
            return; // the calls replayed give the header words; a snapshot logs them all
        }
        for (int i = 0; i < headerWords; i++)
        {
            final long value = live.getPlain(i);
            if (value != loggedHeader[i])
            {
                out.record(ChangelogKeys.word(i), ChangelogKeys.longs(new long[] {value}, 0, 1));
                loggedHeader[i] = value;
            }
        }
    }

    private void logBatch(final StoreChangelog.Sink out)
    {
        if (pendingCount == 0)
        {
            return;
        }
        if (calls)
        {
            out.record(ChangelogKeys.typed(ChangelogKeys.CALLS, ordinal << 32 | nextSeq),
                java.util.Arrays.copyOf(pendingCalls, pendingBytes));
            sinceSnapshot += pendingBytes;
            pendingBytes = 0;
            previousTime = 0;
        }
        else
        {
            out.record(ChangelogKeys.typed(ChangelogKeys.HASHES, ordinal << 32 | nextSeq),
                ChangelogKeys.longs(pending, 0, pendingCount));
            sinceSnapshot += pendingCount;
        }
        pendingCount = 0;
        if (++nextSeq == MAX_SEQ)
        {
            snapshotDue = true; // a new epoch before the batch numbers run out
        }
    }

    private void snapshot(final StoreChangelog.Sink out)
    {
        final long parity = (ordinal + 1) & 1;
        final long chunks = (tableWords + chunkWords - 1) / chunkWords;
        final long[] buffer = new long[(int)Math.min(chunkWords, tableWords)];
        for (long first = 0; first < tableWords; first += chunkWords)
        {
            final int n = (int)Math.min(chunkWords, tableWords - first);
            for (int i = 0; i < n; i++)
            {
                buffer[i] = live.getPlain(headerWords + first + i);
            }
            out.record(ChangelogKeys.typed(ChangelogKeys.CHUNK, parity << ChangelogKeys.PARITY_SHIFT | first),
                ChangelogKeys.longs(buffer, 0, n));
        }
        if (calls)
        {
            // every header word, so that whatever calls of older epochs compaction left, the marker finds the
            // words as they are now (a replay of calls moves the header words)
            for (int i = 0; i < headerWords; i++)
            {
                out.record(ChangelogKeys.word(i), ChangelogKeys.longs(new long[] {live.getPlain(i)}, 0, 1));
            }
        }
        out.record(ChangelogKeys.typed(ChangelogKeys.SNAPSHOT_DONE, 0),
            ChangelogKeys.longs(new long[] {ordinal + 1, chunks}, 0, 2));
        final byte type = calls ? ChangelogKeys.CALLS : ChangelogKeys.HASHES;
        for (long s = 0; s < nextSeq; s++)
        {
            out.record(ChangelogKeys.typed(type, ordinal << 32 | s), null);
        }
        ordinal++;
        nextSeq = 0;
        sinceSnapshot = 0;
        snapshotDue = false;
    }

    @Override
    boolean fullyLogged()
    {
        if (pendingCount > 0 || snapshotDue)
        {
            return false;
        }
        if (calls)
        {
            return true;
        }
        for (int i = 0; i < headerWords; i++)
        {
            if (live.getPlain(i) != loggedHeader[i])
            {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void restoreWords(final long first, final long[] words)
    {
        super.restoreWords(first, words);
        for (int i = 0; i < words.length && first + i < headerWords; i++)
        {
            loggedHeader[(int)(first + i)] = words[i];
        }
    }

    @Override
    protected void replay(final long epoch, final long seq, final long[] hashes)
    {
        super.replay(epoch, seq, hashes);
        if (epoch > ordinal)
        {
            ordinal = epoch;
            nextSeq = 0;
            sinceSnapshot = 0;
        }
        if (epoch == ordinal)
        {
            nextSeq = Math.max(nextSeq, seq + 1);
            sinceSnapshot += hashes.length;
        }
    }

    @Override
    protected int replayCalls(final long epoch, final long seq, final byte[] calls)
    {
        final int n = super.replayCalls(epoch, seq, calls);
        if (epoch > ordinal)
        {
            ordinal = epoch;
            nextSeq = 0;
            sinceSnapshot = 0;
        }
        if (epoch == ordinal)
        {
            nextSeq = Math.max(nextSeq, seq + 1);
            sinceSnapshot += calls.length;
        }
        return n;
    }

    @Override
    protected void snapshotDone(final long completed)
    {
        if (completed >= ordinal)
        {
            ordinal = completed;
            nextSeq = 0;
            sinceSnapshot = 0;
        }
    }

    /** @return the last complete snapshot's ordinal (0: none yet), the epoch of the batches being logged. */
    long epoch()
    {
        return ordinal;
    }

    @Override
    void persist(final Path dir)
    {
        final Properties state = new Properties();
        state.setProperty("epoch", Long.toString(ordinal));
        state.setProperty("next-batch", Long.toString(nextSeq));
        state.setProperty(calls ? "call-bytes-since-snapshot" : "hashes-since-snapshot", Long.toString(sinceSnapshot));
        final Path file = dir.resolve(store + STATE_SUFFIX);
        final Path temp = dir.resolve(store + STATE_SUFFIX + ".tmp");
        try
        {
            final java.io.StringWriter text = new java.io.StringWriter();
            state.store(text, "ddf store '" + store + "': where its changelog of hashes goes on");
            // forced before it replaces the old one: a power cut must not leave a position behind the log's
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))
            {
                final ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining())
                {
                    out.write(bytes);
                }
                out.force(true);
            }
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("ddf store '" + store + "': cannot write " + file, e);
        }
    }

    private void readState()
    {
        final Properties state = new Properties();
        try (var in = Files.newBufferedReader(stateFile, StandardCharsets.UTF_8))
        {
            state.load(in);
            ordinal = Long.parseLong(state.getProperty("epoch", "0"));
            nextSeq = Long.parseLong(state.getProperty("next-batch", "0"));
            sinceSnapshot = Long.parseLong(state.getProperty(calls ? "call-bytes-since-snapshot" :
                "hashes-since-snapshot", "0"));
        }
        catch (final IOException | NumberFormatException e)
        {
            throw new UncheckedIOException("ddf store '" + store + "': cannot read " + stateFile +
                " (delete the task's state directory to restore it from the changelog)",
                e instanceof IOException io ? io : new IOException(e));
        }
    }
}
