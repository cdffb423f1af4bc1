package io.ddf.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers to damage files on purpose and to check a rejection changed nothing. */
final class TestFiles
{
    private TestFiles()
    {
    }

    /** A small valid spec, unkeyed. */
    static FilterFileSpec smallSpec()
    {
        return new FilterFileSpec(1, 2, 42L, null, new long[] {10, 20, 30}, 128 * 1024);
    }

    /** Creates a valid file at {@code path} and closes it. */
    static void createClosed(final Path path, final FilterFileSpec spec)
    {
        try (FilterFile file = FilterFile.create(path, spec))
        {
            // only the file is wanted
            assertTrue(file.locked());
        }
    }

    /**
     * Rewrites the header page in place.
     *
     * @param path        the file.
     * @param edit        changes to the little-endian header page.
     * @param fixChecksum whether to recompute the checksum after the edit.
     */
    static void patchHeader(final Path path, final Consumer<ByteBuffer> edit, final boolean fixChecksum)
        throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer page = ByteBuffer.allocate(FilterFileDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(page, 0);
            edit.accept(page);
            if (fixChecksum)
            {
                page.putLong(FilterFileDescriptor.CHECKSUM_OFFSET, HeaderCodec.checksum(page));
            }
            page.clear();
            channel.write(page, 0);
        }
    }

    /**
     * Asserts that opening and inspecting the file both fail for {@code reason}, naming the file, and leave it
     * byte-for-byte unchanged.
     *
     * @return the exception from open.
     */
    static FilterFileException assertRejectedUnchanged(final Path path, final FilterFileException.Reason reason)
        throws IOException
    {
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException fromOpen = assertThrows(FilterFileException.class, () -> FilterFile.open(path));
        assertEquals(reason, fromOpen.reason(), fromOpen.getMessage());
        assertTrue(fromOpen.getMessage().contains(path.toString()), fromOpen.getMessage());
        final FilterFileException fromInspect = assertThrows(FilterFileException.class, () -> FilterFile.inspect(path));
        assertEquals(reason, fromInspect.reason(), fromInspect.getMessage());
        assertEquals(before.length, Files.size(path), "length changed");
        assertArrayEquals(before, Files.readAllBytes(path), "bytes changed");
        System.out.println(reason + ": " + fromOpen.getMessage());
        return fromOpen;
    }
}
