package io.ddf.ingest.store;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.ingest.durability.Durability;
import io.ddf.ingest.log.OneLine;
import io.ddf.persistence.FilterFileException;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Makes a fixed-size filter's file for the store: the builder's filter on the data directory's change log (or its
 * file policy when there is none) and the store's clock, what persistence refuses worded for the client.
 */
final class FixedFileMaker
{
    private FixedFileMaker()
    {
    }

    /**
     * @param file       the new file.
     * @param builder    the command's builder.
     * @param durability serve --fsync, and the data directory's change log.
     * @param clock      the wall clock of a filter with a window of time, or null for the engine's.
     * @return the filter.
     * @throws FilterStoreException what the builder or persistence refused.
     */
    static DuplicateFilter make(final Path file, final Supplier<FilterBuilder> builder, final Durability durability,
        final java.time.InstantSource clock)
    {
        // what the builder refuses is the caller's to word: only the file's creation is the store's
        final FilterBuilder made = builder.get();
        if (clock != null)
        {
            made.clock(clock);
        }
        final DuplicateFilter filter;
        try
        {
            final io.ddf.persistence.log.ChangeLog changeLog = durability.changeLog();
            made.file(file);
            filter = (changeLog == null ? made.sync(durability.filePolicy()) : made.log(changeLog)).create();
        }
        catch (final FilterFileException e)
        {
            // persistence checks the free space for the exact file length before it creates anything
            if (e.reason() == FilterFileException.Reason.NO_SPACE)
            {
                throw new FilterStoreException("not enough disk for this filter: " + OneLine.of(e) +
                    "; nothing was written (reserve a smaller capacity or free disk)");
            }
            throw new FilterStoreException(OneLine.of(e));
        }
        catch (final RuntimeException e)
        {
            throw new FilterStoreException(OneLine.of(e));
        }
        return filter;
    }
}
