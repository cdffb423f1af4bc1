package io.ddf.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import static io.ddf.persistence.FilterFileException.Reason.FOREIGN;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;

/**
 * Refuses a path that is not a regular file before anything opens it.
 *
 * <p>Why: opening a FIFO for reading blocks until a writer comes (forever, for {@code ddf info}), reading a
 * device may never end, and mapping either is meaningless. {@code stat} follows a symbolic link, so a link to a
 * regular file is accepted, as the path's user would expect.
 */
public final class RegularFiles
{
    private RegularFiles()
    {
    }

    /**
     * @param path a path about to be opened.
     * @throws FilterFileException {@code NOT_FOUND} when missing, {@code FOREIGN} naming what it is otherwise.
     */
    public static void require(final Path path)
    {
        final BasicFileAttributes attributes;
        try
        {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot stat: " + ex, ex);
        }
        if (!attributes.isRegularFile())
        {
            throw new FilterFileException(FOREIGN, path, "not a regular file (" + describe(attributes) +
                "); a filter file is a regular file");
        }
    }

    private static String describe(final BasicFileAttributes attributes)
    {
        if (attributes.isDirectory())
        {
            return "a directory";
        }
        return attributes.isOther() ? "a FIFO, socket or device" : "a symbolic link to nothing regular";
    }
}
