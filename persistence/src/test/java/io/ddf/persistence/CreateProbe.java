package io.ddf.persistence;

import java.nio.file.Path;

/**
 * Run in a second JVM by {@link AtomicCreationTest}: prints {@code CREATING} and creates a filter file whose table
 * is as long as asked, so the test can kill the process while the file is being built.
 */
public final class CreateProbe
{
    private CreateProbe()
    {
    }

    /**
     * @param args the file to create, and its table length in bytes.
     */
    public static void main(final String[] args)
    {
        System.out.println("CREATING");
        System.out.flush();
        try (FilterFile file = FilterFile.create(Path.of(args[0]),
            new FilterFileSpec(1, 2, 42L, null, new long[0], Long.parseLong(args[1]))))
        {
            System.out.println("CREATED " + file.fileLength());
        }
    }
}
