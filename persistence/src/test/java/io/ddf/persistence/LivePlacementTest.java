package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live-placed filter file ({@link LivePlacement}): mapped from its live copy, written into the data directory's
 * file only by a force; opened from the live copy when it belongs to the file, else restored from the file with its
 * boot id cleared (so that the change log replays). The live root here is a temporary directory, not a tmpfs: the
 * placement does not depend on the file system.
 */
class LivePlacementTest extends MappedMemoryTestBase
{
    private static final String BOOT = "3f0c2a52-7f2f-4b43-9f7e-5a3e1c0d9b11";
    private static final long MARK = 0x5EED_F00D_CAFE_BEEFL;
    private static final int BOOT_ID = LivePlacement.Header.FIXED.bootId();
    private static final int CHECKPOINT = LivePlacement.Header.FIXED.checkpoint();

    @TempDir
    Path data;
    @TempDir
    Path liveRoot;

    @BeforeEach
    void place()
    {
        LivePlacement.install(data, liveRoot, BOOT);
    }

    @AfterEach
    void unplace()
    {
        LivePlacement.uninstall(data);
    }

    @Test
    void theTableReachesTheFileAtAForceOnlyAndACleanCloseDropsTheLiveCopy() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset;
        try (FilterFile file = FilterFile.create(path, TestFiles.smallSpec()))
        {
            final Path live = LivePlacement.liveFor(path);
            assertNotNull(live);
            assertTrue(live.startsWith(liveRoot), live.toString());
            assertTrue(Files.isRegularFile(live), "the live copy exists beside the file");
            tableOffset = file.tableAddress() - file.headerAddress();
            new UnsafeBuffer(file.tableAddress(), 64).putLong(8, MARK);
            assertEquals(0, longAt(path, tableOffset + 8), "a store into the mapping does not reach the file");
            assertEquals(MARK, longAt(live, tableOffset + 8), "it is in the live copy");
            file.forcePages();
            assertEquals(MARK, longAt(path, tableOffset + 8), "a force writes it into the file");
        }
        assertFalse(Files.exists(LivePlacement.liveFor(path)), "closed cleanly: the file is whole, its copy deleted");
        LivePlacement.uninstall(data);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck(), "sealed in the file itself");
            assertEquals(MARK, new UnsafeBuffer(file.tableAddress(), 64).getLong(8));
        }
    }

    @Test
    void aForceWritesOnlyTheChunksChangedSinceTheLastAndTheFileEndsEqualToTheCopy() throws IOException
    {
        final Path path = data.resolve("big.ddf");
        final int table = 8 << 20;
        try (FilterFile file = FilterFile.create(path,
            new FilterFileSpec(1, 2, 42L, null, new long[] {10}, table)))
        {
            final UnsafeBuffer memory = new UnsafeBuffer(file.tableAddress(), table);
            for (int i = 0; i < table; i += 4096)
            {
                memory.putLong(i, MARK + i); // every chunk changed
            }
            file.forcePages();
            final long before = bytesWrittenByThisProcess();
            file.forcePages();
            final long unchanged = bytesWrittenByThisProcess() - before;
            memory.putLong(5 << 20, 7);
            final long start = bytesWrittenByThisProcess();
            file.forcePages();
            final long oneChanged = bytesWrittenByThisProcess() - start;
            // the header's chunk is written each time: a force stores the last sync time in it (FileSeal)
            assertTrue(unchanged < (1 << 20) + (256 << 10), "the table unchanged: 1 chunk of 9 written, " + unchanged);
            assertTrue(oneChanged >= 2 << 20 && oneChanged < (2 << 20) + (256 << 10),
                "one table chunk changed: it and the header's written, " + oneChanged);
            assertEquals(7, longAt(path, file.tableAddress() - file.headerAddress() + (5 << 20)));
            file.forceHeader(); // the last sync time the force stored after its pages, as a checkpoint does
            assertEquals(-1, Files.mismatch(path, LivePlacement.liveFor(path)), "the file equals its live copy");
        }
    }

    /** @return wchar of /proc/self/io: bytes this process passed to write calls. */
    private static long bytesWrittenByThisProcess() throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/io")))
        {
            if (line.startsWith("wchar:"))
            {
                return Long.parseLong(line.substring("wchar:".length()).trim());
            }
        }
        throw new IllegalStateException("no wchar in /proc/self/io");
    }

    @Test
    void anOpenWithoutALiveCopyRestoresItAndClearsTheBootIdSoTheLogReplays() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedFile(path);
        try (FilterFile file = FilterFile.open(path))
        {
            final UnsafeBuffer header = new UnsafeBuffer(file.headerAddress(), 4096);
            assertEquals(0, header.getLong(BOOT_ID), "the restored copy's boot id is cleared");
            assertEquals(0, header.getLong(BOOT_ID + 8));
            assertEquals(MARK, new UnsafeBuffer(file.headerAddress() + tableOffset, 64).getLong(8),
                "the table as the file held it");
            assertTrue(Files.isRegularFile(LivePlacement.liveFor(path)), "restored");
        }
    }

    @Test
    void aLiveCopyOfTheSameFileNotBehindItsCheckpointIsMappedAsFound() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedWithLiveCopy(path, 7);
        final Path live = LivePlacement.liveFor(path);
        try (FilterFile file = FilterFile.open(path))
        {
            final UnsafeBuffer header = new UnsafeBuffer(file.headerAddress(), 4096);
            assertEquals(MARK + 1, new UnsafeBuffer(file.headerAddress() + tableOffset, 64).getLong(8),
                "the live copy's table, newer than the file's");
            assertNotEquals(0, header.getLong(BOOT_ID), "its boot id kept: the restart is SAME_BOOT");
        }
    }

    @Test
    void aLiveCopyBehindTheFilesCheckpointIsDistrusted() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedWithLiveCopy(path, 3);
        assertRestoredFromTheFile(path, tableOffset);
    }

    @Test
    void aLiveCopyOfAnotherFileIsDistrusted() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedWithLiveCopy(path, 7);
        final Path live = LivePlacement.liveFor(path);
        patch(live, FilterFileDescriptor.CREATED_MILLIS_OFFSET, 12345L); // made again under the same name
        assertRestoredFromTheFile(path, tableOffset);
    }

    @Test
    void aNewBootEmptiesTheLiveDirectory() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedWithLiveCopy(path, 7);
        LivePlacement.install(data, liveRoot, "0e6b1d9c-1111-4222-8333-944455556666");
        assertFalse(Files.exists(LivePlacement.liveFor(path)), "a copy from another boot is not trusted");
        assertRestoredFromTheFile(path, tableOffset);
    }

    @Test
    void deleteRemovesBothCopiesAndAnOrphanedCopyGoesAtInstall() throws IOException
    {
        final Path path = data.resolve("f.ddf");
        final long tableOffset = crashedWithLiveCopy(path, 7);
        final Path live = LivePlacement.liveFor(path);
        assertTrue(LivePlacement.delete(path));
        assertFalse(Files.exists(path));
        assertFalse(Files.exists(live));
        Files.write(data.resolve("g.ddf"), new byte[0]);
        final Path orphan = LivePlacement.liveFor(data.resolve("orphan.ddf"));
        Files.write(orphan, new byte[4096]);
        LivePlacement.install(data, liveRoot, BOOT);
        assertFalse(Files.exists(orphan), "a live copy whose file is gone is removed");
    }

    @Test
    void theLiveDirectoryOfADataDirectoryThatIsGoneIsRemoved() throws IOException
    {
        final Path other = Files.createDirectory(data.resolve("other"));
        final Path otherLive = LivePlacement.install(other, liveRoot, BOOT);
        Files.write(otherLive.resolve("x.ddf"), new byte[4096]);
        LivePlacement.uninstall(other);
        Files.delete(other);
        LivePlacement.install(data, liveRoot, BOOT);
        assertFalse(Files.exists(otherLive), "its copies would hold RAM until a reboot");
    }

    @Test
    void aGrowingFileCopiesEverySegmentAndItsLiveCopyIsKeptAfterACrash() throws IOException
    {
        final Path path = data.resolve("chain.ddf");
        final LivePlacement.Header header = new LivePlacement.Header(new int[] {0, 16}, 208, 224, 240, 0x4C414553);
        final int page = (int)SegmentedFile.PAGE;
        try (SegmentedFile file = SegmentedFile.create(path, page, header, f ->
            new UnsafeBuffer(f.map(0, page), page).putLong(0, MARK)))
        {
            file.grow(3 * page);
            final long second = file.map(page, 2 * page);
            new UnsafeBuffer(second, 2 * page).putLong(page + 8, MARK + 2);
            assertEquals(0, longAt(path, 2 * page + 8), "not written before a force");
            file.force();
            assertEquals(MARK + 2, longAt(path, 2 * page + 8), "every segment forced into the file");
            assertEquals(3 * page, Files.size(path));
            assertEquals(3 * page, Files.size(file.livePath()));
            new UnsafeBuffer(second, 2 * page).putLong(page + 16, MARK + 3); // not forced: the live copy has it
        }
        assertTrue(Files.exists(LivePlacement.liveFor(path)), "not closed cleanly (no seal word): the copy is kept");
        try (SegmentedFile file = SegmentedFile.open(path, header))
        {
            assertEquals(3 * page, file.length());
            final long second = file.map(page, 2 * page);
            assertEquals(MARK + 3, new UnsafeBuffer(second, 2 * page).getLong(page + 16), "the live copy's");
        }
        Files.delete(LivePlacement.liveFor(path));
        try (SegmentedFile file = SegmentedFile.open(path, header))
        {
            final long second = file.map(page, 2 * page);
            assertEquals(0, new UnsafeBuffer(second, 2 * page).getLong(page + 16), "the file's, restored");
            assertEquals(MARK + 2, new UnsafeBuffer(second, 2 * page).getLong(page + 8));
        }
    }

    /**
     * A file as a crashed daemon leaves it: its table forced with a mark, then closed cleanly and its seal cleared
     * by hand, a boot id and checkpoint 5 in its header.
     *
     * @return the table's offset in the file.
     */
    private long crashedFile(final Path path) throws IOException
    {
        final long tableOffset;
        try (FilterFile file = FilterFile.create(path, TestFiles.smallSpec()))
        {
            tableOffset = file.tableAddress() - file.headerAddress();
            new UnsafeBuffer(file.tableAddress(), 64).putLong(8, MARK);
        }
        TestFiles.patchHeader(path, page ->
        {
            page.putInt(FilterFileDescriptor.SEAL_OFFSET, 0);
            page.putLong(BOOT_ID, 0x1122334455667788L);
            page.putLong(BOOT_ID + 8, 0x99AABBCCDDEEFF00L);
            page.putLong(CHECKPOINT, 5);
        }, false);
        assertFalse(Files.exists(LivePlacement.liveFor(path)));
        return tableOffset;
    }

    /** {@link #crashedFile}, and a live copy with a newer table and the given checkpoint. */
    private long crashedWithLiveCopy(final Path path, final long checkpoint) throws IOException
    {
        final long tableOffset = crashedFile(path);
        liveCopyWithNewerTable(path, LivePlacement.liveFor(path), tableOffset, checkpoint);
        return tableOffset;
    }

    /** A live copy as the crashed daemon's would be: the file with a newer table and the given checkpoint. */
    private static void liveCopyWithNewerTable(final Path path, final Path live, final long tableOffset,
        final long checkpoint) throws IOException
    {
        Files.copy(path, live, StandardCopyOption.REPLACE_EXISTING);
        patch(live, tableOffset + 8, MARK + 1);
        patch(live, CHECKPOINT, checkpoint);
    }

    private static void assertRestoredFromTheFile(final Path path, final long tableOffset)
    {
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(MARK, new UnsafeBuffer(file.headerAddress() + tableOffset, 64).getLong(8),
                "the file's table, not the distrusted copy's");
            assertEquals(0, new UnsafeBuffer(file.headerAddress(), 4096).getLong(BOOT_ID), "boot id cleared");
        }
    }

    private static long longAt(final Path file, final long offset) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer buffer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(buffer, offset);
            return buffer.getLong(0);
        }
    }

    private static void patch(final Path file, final long offset, final long value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
        }
    }
}
