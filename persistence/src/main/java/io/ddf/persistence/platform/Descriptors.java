package io.ddf.persistence.platform;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Locale;

/** The descriptor number behind a {@link RandomAccessFile}, for the system calls Java does not offer. */
public final class Descriptors
{
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");

    private Descriptors()
    {
    }

    /**
     * @param raf an open file.
     * @return its descriptor number (java.io is opened to this code by the JVM flags Chronicle needs), or -1 where
     *         it cannot be had or the platform is not Linux.
     */
    public static int of(final RandomAccessFile raf)
    {
        if (!LINUX)
        {
            return -1;
        }
        try
        {
            final java.lang.reflect.Field fd = FileDescriptor.class.getDeclaredField("fd");
            fd.setAccessible(true);
            return fd.getInt(raf.getFD());
        }
        catch (final ReflectiveOperationException | RuntimeException | IOException unavailable)
        {
            return -1;
        }
    }
}
