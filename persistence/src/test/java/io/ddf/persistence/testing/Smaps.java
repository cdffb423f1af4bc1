package io.ddf.persistence.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * This process's mappings of a file as Linux reports them in {@code /proc/self/smaps}: how much of each is resident
 * and which madvise flags it carries, for tests of what the engine asks of the kernel.
 */
public final class Smaps
{
    /**
     * One mapping.
     *
     * @param sizeKb     its length.
     * @param rssKb      how much of it is mapped in (resident in this process's page tables).
     * @param vmFlags    its VmFlags, e.g. {@code hg} once madvise(MADV_HUGEPAGE) was called on it.
     */
    public record Mapping(long sizeKb, long rssKb, List<String> vmFlags)
    {
    }

    private Smaps()
    {
    }

    /** @return whether this system reports mappings in /proc/self/smaps (Linux). */
    public static boolean available()
    {
        return Files.isReadable(Path.of("/proc/self/smaps"));
    }

    /** @return whether the kernel has transparent huge pages (without them madvise(MADV_HUGEPAGE) is refused). */
    public static boolean transparentHugePages()
    {
        return Files.isDirectory(Path.of("/sys/kernel/mm/transparent_hugepage"));
    }

    /**
     * @param file the mapped file (found by its inode, whatever name the mapping shows).
     * @return this process's mappings of it, in address order.
     * @throws IOException when /proc/self/smaps cannot be read.
     */
    public static List<Mapping> of(final Path file) throws IOException
    {
        // by inode: a file created under a temporary name and linked to its own shows that name, "(deleted)"
        final String inode = Files.getAttribute(file, "unix:ino").toString();
        final List<Mapping> found = new ArrayList<>();
        boolean in = false;
        long size = 0;
        long rss = 0;
        for (final String line : Files.readAllLines(Path.of("/proc/self/smaps")))
        {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*"))
            {
                final String[] fields = line.split(" +");
                in = fields.length > 5 && fields[4].equals(inode);
            }
            else if (in && line.startsWith("Size:"))
            {
                size = kilobytes(line);
            }
            else if (in && line.startsWith("Rss:"))
            {
                rss = kilobytes(line);
            }
            else if (in && line.startsWith("VmFlags:"))
            {
                found.add(new Mapping(size, rss, List.of(line.substring("VmFlags:".length()).trim().split(" +"))));
            }
        }
        return found;
    }

    private static long kilobytes(final String line)
    {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
}
