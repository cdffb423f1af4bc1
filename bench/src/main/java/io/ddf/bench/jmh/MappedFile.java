package io.ddf.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fresh directory under java.io.tmpdir for one benchmark's filter file, removed with the file afterwards. */
final class MappedFile
{
    private final Path dir;
    private final Path file;

    /**
     * @param name the file's name.
     */
    MappedFile(final String name)
    {
        try
        {
            dir = Files.createTempDirectory("ddf-jmh");
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        file = dir.resolve(name);
    }

    /** @return the file's path (not created yet). */
    Path path()
    {
        return file;
    }

    /** Deletes the file and its directory. */
    void delete()
    {
        try
        {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
