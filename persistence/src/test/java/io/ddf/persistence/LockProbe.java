package io.ddf.persistence;

import java.nio.file.Path;

/**
 * Run in a second JVM by {@link FilterFileLockTest}: tries to open a filter file and prints {@code OPENED}
 * or the failure's reason, so the test sees what another process sees.
 */
public final class LockProbe
{
    private LockProbe()
    {
    }

    /**
     * @param args the file to open.
     */
    public static void main(final String[] args)
    {
        try (FilterFile file = FilterFile.open(Path.of(args[0])))
        {
            System.out.println("OPENED " + file.spec().kind());
        }
        catch (final FilterFileException ex)
        {
            System.out.println(ex.reason() + " " + ex.getMessage());
        }
    }
}
