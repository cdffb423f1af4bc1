package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Format 2.0's sealed table checksum: written on clean close, checked on open, refused when it does not match. */
class TableChecksumTest extends MappedMemoryTestBase
{
    private static final FilterFileSpec SPEC = new FilterFileSpec(1, 2, 42L, null, new long[] {1}, 3L << 23);

    @TempDir
    Path dir;

    @Test
    void cleanCloseSealsAndReopenVerifies() throws IOException
    {
        final Path path = dir.resolve("f.ddf");
        try (FilterFile file = FilterFile.create(path, SPEC))
        {
            assertEquals(FilterFile.TableCheck.NEW, file.tableCheck());
            new UnsafeBuffer(file.tableAddress(), 64).putLong(8, 77);
        }
        assertEquals(FilterFileDescriptor.SEAL_VALUE, readInt(path, FilterFileDescriptor.SEAL_OFFSET));
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck());
            assertEquals(0, readInt(path, FilterFileDescriptor.SEAL_OFFSET), "open for writing unseals the file");
        }
        assertEquals(FilterFileDescriptor.SEAL_VALUE, readInt(path, FilterFileDescriptor.SEAL_OFFSET));
    }

    @Test
    void flippedTableByteOfASealedFileIsRefusedNamingTheFileAndLeftUnchanged() throws IOException
    {
        final Path path = sealedFile();
        // A byte in the last of the three 16 MiB chunks, so the parallel path is the one checked.
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + SPEC.tableLength() - 5);
        assertRefusedUnchanged(path);
    }

    @Test
    void flippedStateByteOfASealedFileIsRefused() throws IOException
    {
        final Path path = sealedFile();
        flipByte(path, FilterFileDescriptor.STATE_OFFSET + 3);
        assertRefusedUnchanged(path);
    }

    @Test
    void sealThatDoesNotMatchOpensAsAfterACrashWhenAskedOnlyOnceTheStructurePasses() throws IOException
    {
        final Path path = sealedFile();
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + 123);
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException refused = assertThrows(FilterFileException.class, () -> FilterFile.open(path,
            file -> { throw new IllegalArgumentException("table word 15 is wrong"); },
            OnSealMismatch.CHECK_STRUCTURE));
        assertTrue(refused.getMessage().contains("table checksum mismatch") &&
            refused.getMessage().contains("table word 15 is wrong"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(path), "a refused file must be left unchanged");
        assertRefusedUnchanged(path); // no structure check: refused whatever was asked
        try (FilterFile file = FilterFile.open(path, f -> { }, OnSealMismatch.CHECK_STRUCTURE))
        {
            assertEquals(FilterFile.TableCheck.SEAL_MISMATCH, file.tableCheck());
            assertTrue(file.sealMismatch().contains("table checksum mismatch"), file.sealMismatch());
            assertEquals(0, readInt(path, FilterFileDescriptor.SEAL_OFFSET), "the seal is cleared while open");
        }
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck(), "the close sealed it again");
        }
    }

    @Test
    void unsealedFileOpensAndSaysItNeedsAStructuralCheck() throws IOException
    {
        final Path path = sealedFile();
        // What a crash leaves: the seal cleared at open, the table changed, no close.
        writeInt(path, FilterFileDescriptor.SEAL_OFFSET, 0);
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + 100);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.NOT_SEALED, file.tableCheck());
        }
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck(), "the close sealed it again");
        }
    }

    @Test
    void readOnlyOpenReportsAMismatchWithoutThrowingOrWriting() throws IOException
    {
        final Path path = sealedFile();
        try (FilterFile file = FilterFile.openReadOnly(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck());
            assertTrue(file.checksumMatches());
        }
        flipByte(path, FilterFileDescriptor.TABLE_OFFSET + 7);
        final byte[] before = Files.readAllBytes(path);
        try (FilterFile file = FilterFile.openReadOnly(path))
        {
            assertFalse(file.checksumMatches());
            assertThrows(IllegalStateException.class, file::flush);
        }
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void flushWritesTheChecksumAndLeavesTheFileUnsealed() throws IOException
    {
        final Path path = dir.resolve("flushed.ddf");
        try (FilterFile file = FilterFile.create(path, SPEC))
        {
            new UnsafeBuffer(file.tableAddress(), 64).putLong(0, 5);
            file.flush();
            assertEquals(0, readInt(path, FilterFileDescriptor.SEAL_OFFSET));
            assertNotEquals(0L, file.storedChecksum());
            assertTrue(file.checksumMatches());
        }
    }

    @Test
    void checksumDoesNotDependOnParallelism()
    {
        final Path path = dir.resolve("p.ddf");
        try (FilterFile file = FilterFile.create(path, SPEC))
        {
            final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
            for (int i = 0; i < table.capacity(); i += 4099)
            {
                table.putByte(i, (byte)i);
            }
            final long one = TableChecksum.compute(file.stateAddress(), file.stateLength(), file.tableAddress(),
                file.tableLength(), 1);
            final long two = TableChecksum.compute(file.stateAddress(), file.stateLength(), file.tableAddress(),
                file.tableLength(), 2);
            assertEquals(one, two);
        }
    }

    private Path sealedFile()
    {
        final Path path = dir.resolve("sealed.ddf");
        try (FilterFile file = FilterFile.create(path, SPEC))
        {
            new UnsafeBuffer(file.stateAddress(), 16).putLong(0, 12345);
        }
        return path;
    }

    private static void assertRefusedUnchanged(final Path path) throws IOException
    {
        final byte[] before = Files.readAllBytes(path);
        final FilterFileException ex = assertThrows(FilterFileException.class, () -> FilterFile.open(path));
        assertEquals(CORRUPT, ex.reason(), ex.getMessage());
        assertTrue(ex.getMessage().contains(path.toString()) && ex.getMessage().contains("table checksum mismatch"),
            ex.getMessage());
        assertArrayEquals(before, Files.readAllBytes(path), "a refused file must be left unchanged");
        System.out.println("refused: " + ex.getMessage());
    }

    private static void flipByte(final Path path, final long offset) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte)(one.get(0) ^ 0x20)).position(0);
            channel.write(one, offset);
        }
    }

    private static int readInt(final Path path, final long offset) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final ByteBuffer four = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(four, offset);
            return four.getInt(0);
        }
    }

    private static void writeInt(final Path path, final long offset, final int value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value), offset);
        }
    }
}
