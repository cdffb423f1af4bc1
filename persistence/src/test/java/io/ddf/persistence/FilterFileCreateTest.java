package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.ddf.persistence.FilterFileException.Reason.EXISTS;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.NO_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilterFileCreateTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    @Test
    void createOnAnExistingPathFailsWithExistsAndChangesNothing() throws IOException
    {
        final Path path = dir.resolve("precious.txt");
        Files.writeString(path, "do not clobber me", StandardCharsets.UTF_8);
        final byte[] before = Files.readAllBytes(path);

        final FilterFileException ex = assertThrows(
            FilterFileException.class, () -> FilterFile.create(path, TestFiles.smallSpec()));
        assertEquals(EXISTS, ex.reason());
        assertTrue(ex.getMessage().contains(path.toString()), ex.getMessage());
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void createOnAnExistingFilterFileFailsWithExists() throws IOException
    {
        final Path path = dir.resolve("filter.ddf");
        TestFiles.createClosed(path, TestFiles.smallSpec());
        final byte[] before = Files.readAllBytes(path);
        assertEquals(EXISTS, assertThrows(FilterFileException.class,
            () -> FilterFile.create(path, TestFiles.smallSpec())).reason());
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void anonymousFileWorksAndLeavesNothingBehind() throws IOException
    {
        final Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        final Set<Path> before = ddfTempFiles(tmp);
        try (FilterFile file = FilterFile.create(null, TestFiles.smallSpec()))
        {
            assertTrue(file.temporary());
            assertNull(file.path());
            assertFalse(file.locked(), "an unlinked file needs no lock");
            assertEquals(before, ddfTempFiles(tmp), "unlinked while open");
            final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
            table.putLong(file.tableLength() > 8 ? 8 : 0, 99L);
            assertEquals(99L, table.getLong(8));
            file.flush();
        }
        assertEquals(before, ddfTempFiles(tmp));
    }

    @Test
    void tooLargeForTheDiskFailsWithNoSpaceAndLeavesNoFile() throws IOException
    {
        final long usable = Files.getFileStore(dir).getUsableSpace();
        final long tableLength = (usable + (1L << 30) + 63) & ~63L;
        final Path path = dir.resolve("huge.ddf");
        final FilterFileSpec spec = new FilterFileSpec(1, 2, 3L, null, new long[0], tableLength);

        final FilterFileException ex = assertThrows(FilterFileException.class, () -> FilterFile.create(path, spec));
        System.out.println(ex.getMessage());
        assertEquals(NO_SPACE, ex.reason());
        assertTrue(ex.getMessage().contains(Long.toString(FilterFileDescriptor.fileLength(4096, tableLength))),
            "names the bytes needed: " + ex.getMessage());
        assertTrue(ex.getMessage().contains("available"), ex.getMessage());
        assertFalse(Files.exists(path));
        try (Stream<Path> left = Files.list(dir))
        {
            assertEquals(0, left.count());
        }
    }

    @Test
    void anonymousTooLargeFailsWithNoSpace() throws IOException
    {
        final Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        final long usable = Files.getFileStore(tmp).getUsableSpace();
        final long tableLength = (usable + (1L << 30) + 63) & ~63L;
        final Set<Path> before = ddfTempFiles(tmp);
        final FilterFileSpec spec = new FilterFileSpec(1, 2, 3L, null, new long[0], tableLength);
        assertEquals(NO_SPACE, assertThrows(FilterFileException.class, () -> FilterFile.create(null, spec)).reason());
        assertEquals(before, ddfTempFiles(tmp));
    }

    @Test
    void createInAMissingDirectoryFailsWithIo()
    {
        final Path path = dir.resolve("no-such-dir").resolve("f.ddf");
        final FilterFileException ex = assertThrows(
            FilterFileException.class, () -> FilterFile.create(path, TestFiles.smallSpec()));
        assertEquals(IO, ex.reason(), ex.getMessage());
        assertFalse(Files.exists(path));
    }

    private static Set<Path> ddfTempFiles(final Path tmp) throws IOException
    {
        try (Stream<Path> files = Files.list(tmp))
        {
            return files.filter(p -> p.getFileName().toString().startsWith("ddf-")).collect(Collectors.toSet());
        }
    }
}
