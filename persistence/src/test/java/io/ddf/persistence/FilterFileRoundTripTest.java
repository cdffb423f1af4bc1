package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilterFileRoundTripTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    @Test
    void dataWrittenThroughTheAddressesSurvivesCloseAndOpen() throws IOException
    {
        final Random random = seededRandom();
        final byte[] key = new byte[FilterFileSpec.KEY_LENGTH];
        random.nextBytes(key);
        final long[] params = new long[1 + random.nextInt(FilterFileSpec.MAX_PARAMS)];
        for (int i = 0; i < params.length; i++)
        {
            params[i] = random.nextLong();
        }
        final FilterFileSpec spec = new FilterFileSpec(
            1 + random.nextInt(1000), 1 + random.nextInt(1000), random.nextLong(), random.nextBoolean() ? key : null,
            params, 64L * (1 + random.nextInt(4096)));
        final byte[] table = new byte[(int)spec.tableLength()];
        random.nextBytes(table);
        final byte[] state = new byte[FilterFileDescriptor.STATE_LENGTH];
        random.nextBytes(state);
        final Path path = dir.resolve("round-trip.ddf");

        final long created;
        try (FilterFile file = FilterFile.create(path, spec))
        {
            assertEquals(spec, file.spec());
            assertEquals(path, file.path());
            assertFalse(file.temporary());
            assertTrue(file.locked());
            assertEquals(0, file.tableAddress() % 64, "table alignment");
            assertEquals(0, file.stateAddress() % 64, "state alignment");
            assertEquals(spec.tableLength(), file.tableLength());
            assertEquals(FilterFileDescriptor.STATE_LENGTH, file.stateLength());
            assertEquals(FilterFileDescriptor.fileLength(4096, spec.tableLength()), file.fileLength());
            final UnsafeBuffer tableBuffer = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
            final UnsafeBuffer stateBuffer = new UnsafeBuffer(file.stateAddress(), (int)file.stateLength());
            assertTrue(isZero(tableBuffer), "new table is zeroed");
            assertTrue(isZero(stateBuffer), "new state is zeroed");
            tableBuffer.putBytes(0, table);
            stateBuffer.putBytes(0, state);
            file.flush();
            created = file.createdMillis();
        }
        assertEquals(FilterFileDescriptor.fileLength(4096, spec.tableLength()), Files.size(path));

        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(spec, file.spec());
            assertArrayEquals(spec.key(), file.spec().key());
            assertArrayEquals(spec.params(), file.spec().params());
            assertEquals(2, file.majorVersion());
            assertEquals(0, file.minorVersion());
            assertEquals(created, file.createdMillis());
            final byte[] tableRead = new byte[table.length];
            new UnsafeBuffer(file.tableAddress(), (int)file.tableLength()).getBytes(0, tableRead);
            assertArrayEquals(table, tableRead);
            final byte[] stateRead = new byte[state.length];
            new UnsafeBuffer(file.stateAddress(), (int)file.stateLength()).getBytes(0, stateRead);
            assertArrayEquals(state, stateRead);
        }
    }

    @Test
    void inspectReadsHeaderAndStateAndChangesNothing() throws IOException
    {
        final Path path = dir.resolve("inspect.ddf");
        final FilterFileSpec spec = TestFiles.smallSpec();
        try (FilterFile file = FilterFile.create(path, spec, 1234L))
        {
            new UnsafeBuffer(file.stateAddress(), 16).putLong(8, 0xCAFEL);
        }
        final byte[] before = Files.readAllBytes(path);
        final FilterFileSnapshot snapshot = FilterFile.inspect(path);
        assertEquals(spec, snapshot.spec());
        assertEquals(2, snapshot.majorVersion());
        assertEquals(0, snapshot.minorVersion());
        assertEquals(1234L, snapshot.createdMillis());
        assertEquals(before.length, snapshot.fileLength());
        assertEquals(FilterFileDescriptor.STATE_LENGTH, snapshot.state().length);
        assertEquals(0xCAFEL, new UnsafeBuffer(snapshot.state()).getLong(8));
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void keyedFileIsCreatedOwnerOnly() throws IOException
    {
        final Path path = dir.resolve("keyed.ddf");
        final FilterFileSpec spec = new FilterFileSpec(1, 2, 3L, new byte[16], new long[0], 64);
        TestFiles.createClosed(path, spec);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        try (FilterFile file = FilterFile.open(path))
        {
            assertTrue(file.spec().keyed());
        }
    }

    @Test
    void everyByteIsAllocatedAtCreation() throws Exception
    {
        final Path stat = Path.of("/usr/bin/stat");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(stat), "needs GNU stat");
        final Path path = dir.resolve("dense.ddf");
        TestFiles.createClosed(path, new FilterFileSpec(1, 2, 3L, null, new long[0], 4L << 20));
        final Process process = new ProcessBuilder(stat.toString(), "-c", "%b %B", path.toString()).start();
        final String[] out = new String(process.getInputStream().readAllBytes()).trim().split(" ");
        assertEquals(0, process.waitFor());
        final long allocated = Long.parseLong(out[0]) * Long.parseLong(out[1]);
        assertTrue(allocated >= Files.size(path), "sparse file: " + allocated + " of " + Files.size(path) + " allocated");
    }

    @Test
    void flushAndCloseAreSafeToRepeat()
    {
        final FilterFile file = FilterFile.create(dir.resolve("twice.ddf"), TestFiles.smallSpec());
        file.flush();
        file.flush();
        file.close();
        file.close();
        assertFalse(file.locked());
        assertNull(file.snapshot());
        assertThrows(IllegalStateException.class, file::flush);
    }

    @Test
    void snapshotOfAnOpenFileSeesTheStateRegion()
    {
        final Path path = dir.resolve("live.ddf");
        try (FilterFile file = FilterFile.create(path, TestFiles.smallSpec()))
        {
            new UnsafeBuffer(file.stateAddress(), 8).putLongVolatile(0, 77L);
            assertEquals(77L, new UnsafeBuffer(FilterFile.inspect(path).state()).getLong(0));
            assertTrue(file.locked(), "inspect of a held file must not drop its lock");
        }
    }

    private static boolean isZero(final UnsafeBuffer buffer)
    {
        for (int i = 0; i < buffer.capacity(); i += 8)
        {
            if (buffer.getLong(i) != 0)
            {
                return false;
            }
        }
        return true;
    }
}
