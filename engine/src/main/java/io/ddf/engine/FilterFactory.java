package io.ddf.engine;

import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Path;

/** Maps a file to the filter implementation its header names. */
final class FilterFactory
{
    private FilterFactory()
    {
    }

    static DuplicateFilter create(final Path path, final FilterFileSpec spec)
    {
        throw new UnsupportedOperationException("engine under construction");
    }

    static DuplicateFilter open(final Path path)
    {
        throw new UnsupportedOperationException("engine under construction");
    }
}
