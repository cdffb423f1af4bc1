package io.ddf.persistence.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Run in a second JVM by the power-cut file system's own test: writes four files in a directory, one per way of
 * writing, prints {@code READY} and waits to be killed (the power cut kills the writer before it drops what was not
 * synced). Each file holds {@link #SYNCED} where a sync made it durable and {@link #LOST} where nothing did.
 */
public final class PowerCutWriter
{
    /** What a sync made durable. */
    public static final String SYNCED = "synced";
    /** What no sync covered. */
    public static final String LOST = "lost!!";
    /** Length of the mapped files: two pages. */
    public static final int MAPPED_LENGTH = 8192;

    private PowerCutWriter()
    {
    }

    /**
     * @param args the directory to write in.
     * @throws Exception when a write fails (the test then sees no READY).
     */
    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[0]);
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve("write-fsync").toFile(), "rw"))
        {
            file.write(bytes(SYNCED));
            file.getChannel().force(true);
            file.write(bytes(LOST)); // after the sync: appended, never synced
        }
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve("write").toFile(), "rw"))
        {
            file.write(bytes(LOST));
        }
        final MappedByteBuffer msynced = map(dir.resolve("mmap-msync"));
        msynced.put(0, bytes(SYNCED));
        msynced.force(); // msync(MS_SYNC): the kernel sends the dirty page, then FSYNC
        msynced.put(MAPPED_LENGTH / 2, bytes(LOST)); // the second page, dirtied after the msync
        final MappedByteBuffer mapped = map(dir.resolve("mmap"));
        mapped.put(0, bytes(LOST));
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0)
        {
            Thread.onSpinWait(); // the mappings stay until the kill, or until the test is gone
        }
        System.out.println(msynced.get(0) + mapped.get(0)); // keeps both reachable until then
    }

    /** A file of {@link #MAPPED_LENGTH} bytes, its length made durable, mapped read-write. */
    private static MappedByteBuffer map(final Path path) throws IOException
    {
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw"))
        {
            file.setLength(MAPPED_LENGTH);
            file.getChannel().force(true);
            return file.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, MAPPED_LENGTH);
        }
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
