package io.ddf.engine;

import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.internal.FilterKinds;
import io.ddf.engine.internal.MappedFilter;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * The API's face of a filter on a mapped file: adapts the machinery's booleans to {@link Verdict}s and its header to
 * {@link FilterParameters}. Package-private so that the API package holds the only class that is both a
 * {@link DuplicateFilter} and a user of {@code internal}, and {@code internal} need not know the API.
 */
final class MappedDuplicateFilter implements DuplicateFilter
{
    private final MappedFilter filter;
    private final ElementHasher hasher;
    private final FilterParameters parameters;
    /** The kind built: a window filter's subfilters' (its parameters' kind is then QUEUE). */
    private final FilterKind kind;

    MappedDuplicateFilter(final MappedFilter filter, final FilterParameters parameters)
    {
        this.filter = filter;
        this.hasher = filter.hasher();
        this.parameters = parameters;
        this.kind = parameters.kind() == FilterKind.QUEUE ?
            FilterKind.fromCode(FilterKinds.innerCode(parameters.slots())) : parameters.kind();
    }

    /** @return the machinery under this filter (for {@link Filters#mutableWords}). */
    MappedFilter machinery()
    {
        return filter;
    }

    /**
     * Opens the machinery's filter to the API, closing it if its parameters cannot be read.
     *
     * @param filter a newly mapped filter.
     * @return the API's filter over it.
     */
    static DuplicateFilter of(final MappedFilter filter)
    {
        try
        {
            return new MappedDuplicateFilter(filter, FilterParameters.of(filter));
        }
        catch (final RuntimeException e)
        {
            filter.close();
            throw e;
        }
    }

    @Override
    public long hash(final long element)
    {
        return hasher.hash(element);
    }

    @Override
    public long hash(final byte[] bytes, final int offset, final int length)
    {
        return hasher.hash(bytes, offset, length);
    }

    @Override
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        return hasher.hash(buffer, offset, length);
    }

    @Override
    public long hash(final CharSequence text)
    {
        return hasher.hash(text);
    }

    @Override
    public Verdict streamHash(final long hash)
    {
        return filter.streamHash(hash) ? Verdict.DUPLICATE : Verdict.UNSEEN;
    }

    @Override
    public Verdict streamHash(final long hash, final long timeMillis)
    {
        return filter.streamHash(hash, timeMillis) ? Verdict.DUPLICATE : Verdict.UNSEEN;
    }

    @Override
    public java.util.Optional<TimeWindow> timeWindow()
    {
        final io.ddf.engine.spi.WindowSnapshot window = filter.window();
        return window == null ? java.util.Optional.empty() : java.util.Optional.of(TimeWindow.of(window));
    }

    @Override
    public long touchHash(final long hash)
    {
        return filter.touchHash(hash);
    }

    @Override
    public int stream(final long[] elements, final int offset, final int length, final boolean[] duplicates)
    {
        return filter.streamLongs(elements, offset, length, duplicates);
    }

    @Override
    public boolean containsHash(final long hash)
    {
        return filter.containsHash(hash);
    }

    @Override
    public boolean counting()
    {
        return filter.counting();
    }

    @Override
    public void addHash(final long hash)
    {
        filter.addHash(hash);
    }

    @Override
    public boolean deleteHash(final long hash)
    {
        return filter.deleteHash(hash);
    }

    @Override
    public int countHash(final long hash)
    {
        return filter.countHash(hash);
    }

    @Override
    public long deletions()
    {
        return filter.deletions();
    }

    @Override
    public boolean partitioned()
    {
        return filter.partitioned();
    }

    @Override
    public long partition(final long hash)
    {
        return filter.partition(hash);
    }

    @Override
    public boolean singleWriter()
    {
        return filter.singleWriter();
    }

    @Override
    public FilterKind kind()
    {
        return kind;
    }

    @Override
    public FilterParameters parameters()
    {
        return parameters;
    }

    @Override
    public long elements()
    {
        return filter.elements();
    }

    @Override
    public long duplicates()
    {
        return filter.duplicates();
    }

    @Override
    public Path path()
    {
        return filter.path();
    }

    @Override
    public void flush()
    {
        filter.flush();
    }

    @Override
    public SyncPolicy syncPolicy()
    {
        return SyncPolicy.of(filter.syncMode());
    }

    @Override
    public long sync()
    {
        return filter.sync();
    }

    @Override
    public long durableSince()
    {
        return filter.durableSince();
    }

    @Override
    public LastClose lastClose()
    {
        final LastClose.Kind kind = switch (filter.foundAtOpen())
        {
            case NEW -> LastClose.Kind.CREATED;
            case CHECKSUM_VERIFIED -> LastClose.Kind.CLEAN;
            case NOT_SEALED -> LastClose.Kind.CRASH;
            case SEAL_MISMATCH -> LastClose.Kind.SEAL_MISMATCH;
            case NO_CHECKSUM_IN_FORMAT -> LastClose.Kind.UNKNOWN;
        };
        return new LastClose(kind, filter.lastSyncAtOpen());
    }

    @Override
    public io.ddf.persistence.log.Recovery recovery()
    {
        return filter.recovery();
    }

    @Override
    public io.ddf.persistence.log.Checkpoint checkpoint()
    {
        return filter.checkpoint();
    }

    @Override
    public io.ddf.persistence.log.ChangeLog changeLog()
    {
        return filter.log() == null ? null : filter.log().log();
    }

    @Override
    public void close()
    {
        filter.close();
    }


    @Override
    public String toString()
    {
        return parameters.toString();
    }
}
