package io.ddf.persistence;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

import static io.ddf.persistence.FilterFileDescriptor.*;
import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static io.ddf.persistence.FilterFileException.Reason.FOREIGN;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;
import static io.ddf.persistence.FilterFileException.Reason.NOT_READY;
import static io.ddf.persistence.FilterFileException.Reason.PERMISSIONS;
import static io.ddf.persistence.FilterFileException.Reason.TRUNCATED;
import static io.ddf.persistence.FilterFileException.Reason.UNSUPPORTED_VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of bad file is refused for its own reason and left byte-for-byte unchanged. */
class FilterFileValidationTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    private Path path;

    @BeforeEach
    void createValidFile()
    {
        path = dir.resolve("filter.ddf");
        TestFiles.createClosed(path, TestFiles.smallSpec());
    }

    @Test
    void emptyFileIsForeign() throws IOException
    {
        final Path empty = Files.createFile(dir.resolve("empty.ddf"));
        TestFiles.assertRejectedUnchanged(empty, FOREIGN);
    }

    @Test
    void textFileIsForeign() throws IOException
    {
        final Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello\n".repeat(2000), StandardCharsets.US_ASCII);
        TestFiles.assertRejectedUnchanged(text, FOREIGN);
    }

    @Test
    void randomBytesAreForeign() throws IOException
    {
        final Random random = seededRandom();
        final byte[] bytes = new byte[random.nextInt(3 * HEADER_LENGTH)];
        random.nextBytes(bytes);
        final Path noise = Files.write(dir.resolve("noise.bin"), bytes);
        TestFiles.assertRejectedUnchanged(noise, FOREIGN);
    }

    @Test
    void wrongMagicIsForeign() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.put(MAGIC_OFFSET + 2, (byte)'X'), true);
        TestFiles.assertRejectedUnchanged(path, FOREIGN);
    }

    @Test
    void otherMajorVersionIsUnsupported() throws IOException
    {
        // Checksum fixed, so it is the version check that fires.
        TestFiles.patchHeader(path, page -> page.putInt(MAJOR_VERSION_OFFSET, 3).putInt(MINOR_VERSION_OFFSET, 3), true);
        final FilterFileException ex = TestFiles.assertRejectedUnchanged(path, UNSUPPORTED_VERSION);
        assertTrue(ex.getMessage().contains("3.3") && ex.getMessage().contains("2.x"), ex.getMessage());
    }

    @Test
    void higherMinorVersionIsAccepted() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.putInt(MINOR_VERSION_OFFSET, 7), true);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(7, file.minorVersion());
        }
    }

    @Test
    void flippedParamByteIsCorrupt() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.put(PARAMS_OFFSET + 1, (byte)(page.get(PARAMS_OFFSET + 1) ^ 0x10)),
            false);
        final FilterFileException ex = TestFiles.assertRejectedUnchanged(path, CORRUPT);
        assertTrue(ex.getMessage().contains("checksum"), ex.getMessage());
    }

    @Test
    void insaneFieldsUnderAValidChecksumAreCorrupt() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.putInt(PARAM_COUNT_OFFSET, 17), true);
        TestFiles.assertRejectedUnchanged(path, CORRUPT);
    }

    @Test
    void zeroKindUnderAValidChecksumIsCorrupt() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.putInt(KIND_OFFSET, 0), true);
        TestFiles.assertRejectedUnchanged(path, CORRUPT);
    }

    @Test
    void cutTableIsTruncated() throws IOException
    {
        final long full = Files.size(path);
        final long cut = TABLE_OFFSET + TestFiles.smallSpec().tableLength() / 2;
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            raf.setLength(cut);
        }
        final FilterFileException ex = TestFiles.assertRejectedUnchanged(path, TRUNCATED);
        assertTrue(ex.getMessage().contains(Long.toString(full)) && ex.getMessage().contains(Long.toString(cut)),
            "says expected and actual length: " + ex.getMessage());
    }

    @Test
    void headerOnlyIsTruncated() throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            raf.setLength(HEADER_LENGTH);
        }
        TestFiles.assertRejectedUnchanged(path, TRUNCATED);
    }

    @Test
    void appendedBytesAreCorrupt() throws IOException
    {
        Files.write(path, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        TestFiles.assertRejectedUnchanged(path, CORRUPT);
    }

    @Test
    void unsetReadyWordIsNotReady() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.putInt(READY_OFFSET, 0), false);
        final FilterFileException ex = TestFiles.assertRejectedUnchanged(path, NOT_READY);
        assertTrue(ex.getMessage().contains("creation never finished"), ex.getMessage());
    }

    @Test
    void keyedFileReadableByOthersIsRefused() throws IOException
    {
        final Path keyed = dir.resolve("keyed.ddf");
        TestFiles.createClosed(keyed, new FilterFileSpec(1, 2, 3L, new byte[16], new long[] {5}, 64));
        Files.setPosixFilePermissions(keyed, PosixFilePermissions.fromString("rw-r--r--"));
        final FilterFileException ex = TestFiles.assertRejectedUnchanged(keyed, PERMISSIONS);
        assertTrue(ex.getMessage().contains("chmod 600"), ex.getMessage());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyed)));

        Files.setPosixFilePermissions(keyed, PosixFilePermissions.fromString("rw-------"));
        try (FilterFile file = FilterFile.open(keyed))
        {
            assertTrue(file.spec().keyed());
        }
    }

    @Test
    void missingFileIsNotFoundAndNotCreated()
    {
        final Path missing = dir.resolve("missing.ddf");
        assertEquals(NOT_FOUND, assertThrows(FilterFileException.class, () -> FilterFile.open(missing)).reason());
        assertEquals(NOT_FOUND, assertThrows(FilterFileException.class, () -> FilterFile.inspect(missing)).reason());
        assertTrue(Files.notExists(missing));
    }

    @Test
    void aRefusedFileCanBeOpenedOnceRepaired() throws IOException
    {
        TestFiles.patchHeader(path, page -> page.putInt(READY_OFFSET, 0), false);
        TestFiles.assertRejectedUnchanged(path, NOT_READY);
        TestFiles.patchHeader(path, page -> page.putInt(READY_OFFSET, READY_VALUE), false);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(TestFiles.smallSpec(), file.spec());
        }
    }
}
