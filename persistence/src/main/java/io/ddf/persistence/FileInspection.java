package io.ddf.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.LOCKED;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;

/**
 * Reading what a filter file holds (header fields, a copy of the state region) without opening it: no lock, no
 * mapping, no change; from the open handle when this process holds the file ({@link FilterFile#inspect}).
 */
final class FileInspection
{
    /** How often to look again for a file another thread of this process is opening or closing right now. */
    private static final int ATTEMPTS = 100;

    private FileInspection()
    {
    }

    /**
     * @param path the file.
     * @return what its header and state region hold.
     * @see FilterFile#inspect(Path)
     */
    static FilterFileSnapshot inspect(final Path path)
    {
        Objects.requireNonNull(path, "path");
        RegularFiles.require(path);
        try
        {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++)
            {
                final OpenFileRegistry.Entry holder = OpenFileRegistry.holder(path);
                if (holder == null)
                {
                    return inspectUnheld(path);
                }
                final FilterFile file = holder.file;
                final FilterFileSnapshot snapshot = file == null ? null : file.snapshot();
                if (snapshot != null)
                {
                    return snapshot;
                }
                Thread.onSpinWait(); // being opened or closed right now
            }
            throw new FilterFileException(LOCKED, path, "is being opened or closed in this process; try again");
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot read: " + ex, ex);
        }
    }

    private static FilterFileSnapshot inspectUnheld(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final HeaderReader.Result result = HeaderReader.read(channel, path);
            final FilterFileHeader h = result.header();
            return new FilterFileSnapshot(
                h.spec(), h.majorVersion(), h.minorVersion(), h.createdMillis(), h.fileLength(), result.stateCopy());
        }
    }
}
