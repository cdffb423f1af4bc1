package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.FilterFileException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.Task;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/**
 * A Kafka Streams state store whose state is a ddf filter file, {@code <task state dir>/<store name>.ddf}: one per
 * store per task (so per input partition), created from a {@link FilterSpec} and reopened by remapping. It is a
 * persistent store: after a clean restart Kafka Streams finds its checkpoint and restores nothing.
 *
 * <h2>Changelog</h2>
 * With logging enabled ({@link DdfStoreBuilder}), the store logs at each commit ({@link #flushCache}) what the
 * changelog lacks, in its {@link ChangelogFormat}: by default, for the Bloom filter, QHT and SQF, the hashes of the
 * elements judged UNSEEN with a snapshot of the table now and then ({@link HashChangelog}); for a fifo-bloom with a
 * window of time, every call's hash and time, with a snapshot now and then (the same class); for the other kinds,
 * every word of {@link Filters#mutableWords} (counters, the kind's header state, the table) that changed since the
 * last commit ({@link WordChangelog}). One more record, key {@link #PARAMETERS_KEY}, holds the filter's parameters
 * as text; it is logged once per file, and a restore that meets different parameters fails instead of writing into
 * a table of another layout. The changelog topic is compacted and stays bounded by a few tables. Restoring replays
 * the records in order into the file ({@link BatchingStateRestoreCallback}); a fresh file plus the replayed records
 * is byte-for-byte the original's state, and gives the same verdicts. Standby replicas apply the same records as
 * they arrive, so a standby's file is the active one's as of its last commit.
 *
 * <h2>A window of time</h2>
 * A fifo-bloom with a window of time ({@link FilterSpec#window}) runs on event time: {@link #stream(byte[], int, int,
 * long)} gives each element its record's timestamp, and the filter's time is the latest it was given (the task's
 * stream time, for the records with a dedup key). A record older than that (late, out of order) is judged against
 * what the filter holds and, if new, remembered as of the filter's time, not its own. After a restore wrote words
 * under it, the filter file is reopened before the next call, so that the engine rebuilds what it keeps in the
 * process beside the words (which slots it has sealed, and how far).
 *
 * <h2>Processing guarantees</h2>
 * <ul>
 * <li><b>Exactly-once</b>: the changelog records of a commit go out in the same transaction as the output records and
 * the input offsets. After a crash Kafka Streams finds no checkpoint (EOS deletes it while a task runs), wipes the
 * task directory, this file with it, and restores a fresh file from the committed changelog: the filter is exactly
 * its state after the last committed input, and the uncommitted inputs are processed again against it. Verdicts
 * are those of one sequential pass over the committed input.</li>
 * <li><b>At-least-once</b>: the file may be ahead of the changelog after a crash (it holds the effect of inputs
 * processed since the last commit, which will be processed again). Kafka Streams restores from its last checkpoint
 * over the file (replaying what the file already holds is harmless: a word set to a value it had, a hash already
 * in the table), and the store takes the file as not fully logged (no clean-close marker), so that its first
 * commit logs the whole file again (every word that differs from a fresh file's, or a snapshot), making the
 * changelog whole. What at-least-once cannot give: an input
 * processed again after a crash may be judged DUPLICATE of its own first pass, whose output may not have reached
 * the output topic (at most the inputs of one commit interval per crashed task), or UNSEEN twice when its word was
 * rolled back by the replay (a duplicate output, which at-least-once allows).</li>
 * </ul>
 *
 * <h2>Atomicity</h2>
 * Kafka Streams gives a store to one thread at a time; nothing here is thread-safe. The file's own crash safety
 * (ready word, writer lock, the kinds' {@code recover()}) is the engine's. {@link #flush} forces the file to the
 * device before Kafka Streams writes a checkpoint naming the changelog offset the file holds.
 */
public final class DdfStore implements StateStore, CachedStateStore<byte[], byte[]>
{
    /** Changelog key (as a word index) of the record that holds the filter's parameters. */
    public static final long PARAMETERS_KEY = ChangelogKeys.PARAMETERS;
    /** Suffix of the filter file in the task's state directory. */
    public static final String FILE_SUFFIX = ".ddf";
    /** Suffix of the marker written after a clean close with everything logged. */
    public static final String CLEAN_SUFFIX = ".ddf.clean";

    private final String name;
    private final FilterSpec spec;
    private final boolean logging;
    private final ChangelogFormat format;
    private final Position position = Position.emptyPosition();
    private DuplicateFilter filter;
    private boolean timed;
    private boolean restored;
    private StoreChangelog changelog;
    private ChangelogFormat resolvedFormat;
    private InternalProcessorContext<?, ?> changelogContext;
    private StoreMetrics metrics;
    private Path dir;
    private Path file;
    private String parametersText;
    private boolean parametersLogged;
    private boolean open;
    private long restoredRecords;
    private long loggedRecords;
    private long loggedBytes;

    DdfStore(final String name, final FilterSpec spec, final boolean logging, final ChangelogFormat format)
    {
        this.name = name;
        this.spec = spec;
        this.logging = logging;
        this.format = format;
    }

    @Override
    public String name()
    {
        return name;
    }

    /**
     * @deprecated Kafka Streams calls {@link #init(StateStoreContext, StateStore)}; this old form is refused.
     */
    @Deprecated
    @Override
    public void init(final org.apache.kafka.streams.processor.ProcessorContext context, final StateStore root)
    {
        throw new UnsupportedOperationException("ddf store '" + name + "' needs a StateStoreContext (Kafka Streams 3.x)");
    }

    @Override
    public void init(final StateStoreContext context, final StateStore root)
    {
        if (open)
        {
            throw new IllegalStateException("ddf store '" + name + "' is already open");
        }
        if (logging)
        {
            if (!(context instanceof InternalProcessorContext))
            {
                throw new IllegalStateException("ddf store '" + name + "' writes its changelog through Kafka " +
                    "Streams' own processor context, not " + context.getClass().getName() +
                    "; build it with logging disabled to use it outside Kafka Streams");
            }
            changelogContext = (InternalProcessorContext<?, ?>)context;
        }
        dir = context.stateDir().toPath();
        file = dir.resolve(name + FILE_SUFFIX);
        final Path clean = dir.resolve(name + CLEAN_SUFFIX);
        try
        {
            final boolean existed = Files.exists(file);
            final boolean wasClean = existed && Files.exists(clean);
            filter = openFilter(file);
            parametersText = filter.parameters().toString();
            timed = filter.timeWindow().isPresent();
            if (logging)
            {
                resolvedFormat = format.resolve(filter.parameters().kind(), timed); // QUEUE for a window filter
                changelog = newChangelog(resolvedFormat);
                if (timed)
                {
                    changelog.reopenAfterWords(this::reopenFilter);
                }
                changelog.opened(existed, wasClean, dir);
                parametersLogged = wasClean;
            }
            Files.deleteIfExists(clean);
        }
        catch (final IOException e)
        {
            closeFilters();
            throw new ProcessorStateException("ddf store '" + name + "': cannot use " + dir + ": " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            closeFilters();
            throw e;
        }
        metrics = new StoreMetrics(context.metrics(), context.taskId().toString(), name);
        context.register(root, (BatchingStateRestoreCallback)this::restoreAll);
        open = true;
        metrics.record(filter, loggedRecords, loggedBytes);
    }

    private StoreChangelog newChangelog(final ChangelogFormat resolved)
    {
        if (resolved == ChangelogFormat.HASHES || resolved == ChangelogFormat.CALLS)
        {
            return new HashChangelog(name, filter, this::logRecord, resolved == ChangelogFormat.CALLS);
        }
        return new WordChangelog(name, filter, spec.builder(name, null).singleWriter().create(),
            resolved == ChangelogFormat.BLOCKS);
    }

    /** Closes the filter and opens its file again: after a restore wrote words under it ({@link #timed}). */
    private DuplicateFilter reopenFilter()
    {
        filter.close();
        filter = null;
        filter = openFilter(file);
        return filter;
    }

    private DuplicateFilter openFilter(final Path path)
    {
        try
        {
            // Kafka Streams gives a store to one thread at a time: updates need no locked instruction
            return spec.builder(name, path).singleWriter().openOrCreate();
        }
        catch (final FilterFileException | IllegalArgumentException e)
        {
            throw new ProcessorStateException("ddf store '" + name + "': " + e.getMessage() +
                " (delete the task's state directory to start it from the changelog)", e);
        }
    }

    /**
     * Streams one element through this task's filter.
     *
     * @param bytes holds the element.
     * @return the verdict; the filter now records the element.
     */
    public Verdict stream(final byte[] bytes)
    {
        return stream(bytes, 0, bytes.length);
    }

    /**
     * @param bytes  holds the element.
     * @param offset of its first byte.
     * @param length of the element.
     * @return the verdict; the filter now records the element.
     */
    public Verdict stream(final byte[] bytes, final int offset, final int length)
    {
        checkOpen();
        final long hash = filter.hash(bytes, offset, length);
        final Verdict verdict = filter.streamHash(hash);
        if (changelog != null)
        {
            changelog.streamed(hash, -1, verdict);
        }
        return verdict;
    }

    /**
     * Streams an element at its time, for a filter with a window of time ({@link #timeWindow()}): on event time, the
     * filter's time becomes the latest it was given, and an element older than that is judged and remembered as of
     * the filter's time ({@link io.ddf.engine.DuplicateFilter#stream(long, long)}).
     *
     * @param bytes      holds the element.
     * @param offset     of its first byte.
     * @param length     of the element.
     * @param timeMillis its time, epoch milliseconds (a record's timestamp); a negative one (a record without a
     *                   timestamp) leaves the filter's time as it is.
     * @return the verdict; the filter now records the element.
     * @throws UnsupportedOperationException when the filter has no window of time.
     */
    public Verdict stream(final byte[] bytes, final int offset, final int length, final long timeMillis)
    {
        checkOpen();
        final long hash = filter.hash(bytes, offset, length);
        final Verdict verdict = timeMillis < 0 ? filter.streamHash(hash) : filter.streamHash(hash, timeMillis);
        if (changelog != null)
        {
            changelog.streamed(hash, timeMillis < 0 ? -1 : timeMillis, verdict);
        }
        return verdict;
    }

    /** @return whether the filter has a window of time, so that {@link #stream(byte[], int, int, long)} takes times. */
    public boolean timed()
    {
        checkOpen();
        return timed;
    }

    /** @return the filter's window of time and what it has done, read now; empty without one. */
    public java.util.Optional<io.ddf.engine.TimeWindow> timeWindow()
    {
        checkOpen();
        return filter.timeWindow();
    }

    /**
     * @param bytes holds the element.
     * @return whether {@link #stream} would answer DUPLICATE now; nothing changes.
     */
    public boolean contains(final byte[] bytes)
    {
        checkOpen();
        return filter.contains(bytes, 0, bytes.length);
    }

    /** @return elements streamed over the file's lifetime. */
    public long elements()
    {
        checkOpen();
        return filter.elements();
    }

    /** @return those judged DUPLICATE. */
    public long duplicates()
    {
        checkOpen();
        return filter.duplicates();
    }

    /** @return the filter's parameters. */
    public FilterParameters parameters()
    {
        checkOpen();
        return filter.parameters();
    }

    /** @return the changelog format this store writes (null without logging). */
    public ChangelogFormat changelogFormat()
    {
        checkOpen();
        return resolvedFormat;
    }

    /** @return the filter file. */
    public Path path()
    {
        return file;
    }

    /** @return changelog records this instance has written (including deletes and the parameters record). */
    public long loggedRecords()
    {
        return loggedRecords;
    }

    /** @return their key and value bytes. */
    public long loggedBytes()
    {
        return loggedBytes;
    }

    /** @return changelog records this instance has restored. */
    public long restoredRecords()
    {
        return restoredRecords;
    }

    /** @return the restore callback Kafka Streams calls with changelog records (key and value bytes). */
    public BatchingStateRestoreCallback restoreCallback()
    {
        return this::restoreAll;
    }

    private void restoreAll(final Collection<KeyValue<byte[], byte[]>> records)
    {
        if (!open)
        {
            throw new IllegalStateException("ddf store '" + name + "' is not open");
        }
        if (changelog == null)
        {
            throw new IllegalStateException("ddf store '" + name + "' has no changelog to restore from");
        }
        restored = true;
        for (final KeyValue<byte[], byte[]> record : records)
        {
            if (record.key == null)
            {
                throw changelog.corrupt("a null key");
            }
            if (record.key.length == Long.BYTES && ChangelogKeys.number(record.key) == PARAMETERS_KEY)
            {
                final String logged = record.value == null ? "null" : new String(record.value, StandardCharsets.UTF_8);
                if (!logged.equals(parametersText))
                {
                    throw new ProcessorStateException("ddf store '" + name + "': the changelog was written by a " +
                        "filter with parameters [" + logged + "] but this store's are [" + parametersText + "]; " +
                        "keep the filter options of the application, or start a new application id");
                }
                parametersLogged = true;
            }
            else
            {
                changelog.restore(record.key, record.value);
            }
            restoredRecords++;
        }
    }

    /**
     * The commit hook: logs what the changelog lacks (with logging enabled, in an active task) and updates the
     * metrics. Kafka Streams 3.8 calls it in {@code StreamTask.prepareCommit}, before it flushes its producer and
     * commits the input offsets (or the transaction, under exactly-once); it calls {@link #flush} only later,
     * after the commit, when it writes a checkpoint. Kafka Streams has no public pre-commit hook for a store until
     * KIP-892's {@code commit}; this internal interface is the one its own caching stores use to send their
     * changelog records with the commit.
     */
    @Override
    public void flushCache()
    {
        if (!open)
        {
            return;
        }
        if (changelogContext != null && changelogContext.taskType() == Task.TaskType.ACTIVE)
        {
            if (!parametersLogged)
            {
                logRecord(ChangelogKeys.word(PARAMETERS_KEY), parametersText.getBytes(StandardCharsets.UTF_8));
                parametersLogged = true;
            }
            changelog.commit(this::logRecord);
        }
        metrics.record(filter, loggedRecords, loggedBytes);
    }

    /** Nothing to clear: what is not yet logged is found by the changelog, whoever wrote it. */
    @Override
    public void clearCache()
    {
    }

    /**
     * @return false: the store forwards nothing when its changes are logged.
     */
    @Override
    public boolean setFlushListener(final CacheFlushListener<byte[], byte[]> listener, final boolean sendOldValues)
    {
        return false;
    }

    /**
     * Forces the file to the device, and keeps where the changelog goes on: Kafka Streams calls it just before it
     * writes a checkpoint naming the changelog offset the file holds, so after a power loss the file is not behind
     * its checkpoint.
     */
    @Override
    public void flush()
    {
        if (open)
        {
            filter.flush();
            if (changelog != null)
            {
                changelog.persist(dir);
            }
        }
    }

    private void logRecord(final byte[] key, final byte[] value)
    {
        changelogContext.logChange(name, Bytes.wrap(key), value, changelogContext.currentSystemTimeMs(), position);
        loggedRecords++;
        loggedBytes += key.length + (value == null ? 0 : value.length);
    }

    @Override
    public void close()
    {
        if (!open)
        {
            return;
        }
        open = false;
        try
        {
            final boolean allLogged = changelog == null || (parametersLogged && changelog.fullyLogged());
            filter.flush();
            if (changelog != null)
            {
                changelog.persist(dir);
            }
            if (allLogged)
            {
                Files.write(dir.resolve(name + CLEAN_SUFFIX), new byte[0]);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("ddf store '" + name + "': cannot mark a clean close", e);
        }
        finally
        {
            metrics.close();
            closeFilters();
        }
    }

    private void closeFilters()
    {
        if (changelog != null)
        {
            changelog.close();
        }
        if (filter != null)
        {
            filter.close();
        }
    }

    private void checkOpen()
    {
        if (!open)
        {
            throw new IllegalStateException("ddf store '" + name + "' is not open");
        }
        if (restored)
        {
            // the first use after a restore: a filter with state of its own in the process beside its words is
            // reopened if words were written under it (StoreChangelog.settle)
            restored = false;
            changelog.settle(); // through reopenFilter, which keeps this.filter
        }
    }

    /** @return true: the filter file outlives the process, and a clean restart restores nothing. */
    @Override
    public boolean persistent()
    {
        return true;
    }

    @Override
    public boolean isOpen()
    {
        return open;
    }

    @Override
    public Position getPosition()
    {
        return position;
    }
}
