package io.ddf.persistence;

import net.openhft.hashing.LongHashFunction;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Formats 1.0 and 2.0 must stay readable, and this build must still write 2.0 bit for bit. The golden files
 * {@code src/test/resources/golden/filter-1.0.ddf} (made by the 1.0 build) and {@code filter-2.0.ddf} (made by
 * {@link #regenerateGoldenFile()}) hold the same inputs; see FORMAT.md.
 */
class GoldenFileTest extends MappedMemoryTestBase
{
    static final String GOLDEN_1_0 = "golden/filter-1.0.ddf";
    static final String GOLDEN = "golden/filter-2.0.ddf";
    static final long CREATED_MILLIS = 1_700_000_000_000L; // 2023-11-14T22:13:20Z
    static final byte[] KEY = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static final FilterFileSpec SPEC = new FilterFileSpec(
        7, 3, 0x0123456789ABCDEFL, KEY, new long[] {1, 2, 3, -1, Long.MAX_VALUE}, 8192);
    static final long STATE_WORD_0 = 42L;
    static final long STATE_WORD_1 = 4711L;

    @TempDir
    Path dir;

    @Test
    void goldenFile10OpensWithEveryHeaderFieldAndIsNeverSealed() throws IOException
    {
        final Path path = copyGolden(GOLDEN_1_0);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.NO_CHECKSUM_IN_FORMAT, file.tableCheck());
        }
        checkEveryField(path, 1);
    }

    @Test
    void goldenFile20OpensWithEveryHeaderFieldAndItsChecksumMatches() throws IOException
    {
        final Path path = copyGolden(GOLDEN);
        final byte[] bytes = Files.readAllBytes(path);
        final ByteBuffer raw = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("SEAL", new String(bytes, 256, 4, StandardCharsets.US_ASCII));
        // The table checksum, computed here from its definition in FORMAT.md, independently of TableChecksum.
        final LongHashFunction xx3 = LongHashFunction.xx3();
        final ByteBuffer list = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        list.putLong(xx3.hashBytes(bytes, 1024, 2048)).putLong(xx3.hashBytes(bytes, 4096, 8192));
        assertEquals(xx3.hashBytes(list.array()), raw.getLong(248), "table checksum");
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck());
        }
        checkEveryField(path, 2);
    }

    private void checkEveryField(final Path path, final int major) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(path);
        assertEquals(65536, bytes.length);

        // Raw bytes, independently of the codec.
        final ByteBuffer raw = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("DDFILTER", new String(bytes, 0, 8, StandardCharsets.US_ASCII));
        assertEquals(major, raw.getInt(8));
        assertEquals(0, raw.getInt(12));
        assertEquals(4096, raw.getInt(16));
        assertEquals(7, raw.getInt(20));
        assertEquals(3, raw.getInt(24));
        assertEquals(1, raw.getInt(28));
        assertEquals(0x0123456789ABCDEFL, raw.getLong(32));
        assertArrayEquals(KEY, Arrays.copyOfRange(bytes, 40, 56));
        assertEquals(4096L, raw.getLong(56));
        assertEquals(8192L, raw.getLong(64));
        assertEquals(1024L, raw.getLong(72));
        assertEquals(2048L, raw.getLong(80));
        assertEquals(CREATED_MILLIS, raw.getLong(88));
        assertEquals(5, raw.getInt(96));
        assertEquals(0, raw.getInt(100));
        final long[] params = {1, 2, 3, -1, Long.MAX_VALUE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 16; i++)
        {
            assertEquals(params[i], raw.getLong(104 + 8 * i), "param " + i);
        }
        assertEquals(LongHashFunction.xx3().hashBytes(bytes, 0, 232), raw.getLong(232), "checksum");
        assertEquals("REDY", new String(bytes, 240, 4, StandardCharsets.US_ASCII));
        assertEquals(STATE_WORD_0, raw.getLong(1024));
        assertEquals(STATE_WORD_1, raw.getLong(1032));
        assertEquals(tableWord(0), raw.getLong(4096));
        assertEquals(tableWord(1023), raw.getLong(4096 + 8 * 1023));

        final FilterFileSnapshot snapshot = FilterFile.inspect(path);
        assertEquals(SPEC, snapshot.spec());
        assertEquals(CREATED_MILLIS, snapshot.createdMillis());

        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(SPEC, file.spec());
            assertEquals(major, file.majorVersion());
            assertEquals(0, file.minorVersion());
            assertEquals(CREATED_MILLIS, file.createdMillis());
            assertEquals(8192, file.tableLength());
            assertEquals(2048, file.stateLength());
            final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
            for (int i = 0; i < 1024; i += 97)
            {
                assertEquals(tableWord(i), table.getLong(8 * i), "table word " + i);
            }
            assertEquals(STATE_WORD_1, new UnsafeBuffer(file.stateAddress(), 16).getLong(8));
        }
        assertArrayEquals(bytes, Files.readAllBytes(path), "opening and closing changed the golden file");
    }

    @Test
    void freshFileFromTheSameInputsIsByteIdenticalToTheGoldenFile() throws IOException
    {
        final Path fresh = dir.resolve("fresh.ddf");
        final long before = System.currentTimeMillis();
        writeGoldenContent(fresh);
        final byte[] bytes = Files.readAllBytes(fresh);
        // The last sync time (2.0, additive) holds when the close began; the golden file, written before the field
        // existed, holds 0 there, as every older 2.0 file does.
        final long lastSync = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(264);
        assertTrue(lastSync >= before && lastSync <= System.currentTimeMillis(), "last sync time " + lastSync);
        Arrays.fill(bytes, 264, 272, (byte)0);
        assertArrayEquals(readGolden(GOLDEN), bytes);
    }

    @Test
    void theLastSyncTimeOfAGoldenFileIsNotRecordedAndStaysSo() throws IOException
    {
        final Path path = copyGolden(GOLDEN);
        try (FilterFile file = FilterFile.open(path))
        {
            assertEquals(0, file.lastSyncAtOpen(), "a file older than the field records none");
            assertTrue(file.durableSince() > 0, "a sealed file is durable as of its open");
        }
        assertArrayEquals(readGolden(GOLDEN), Files.readAllBytes(path), "an unchanged file is left as found");
    }

    /**
     * Rewrites the golden file. Run only on purpose, after an intended format change (which needs a new version):
     * {@code mvn -pl persistence -am test -Dtest=GoldenFileTest -Dsurefire.failIfNoSpecifiedTests=false
     * -Dddf.golden.regenerate=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "ddf.golden.regenerate", matches = "true")
    void regenerateGoldenFile() throws IOException
    {
        final Path target = Path.of("src", "test", "resources", GOLDEN);
        Files.deleteIfExists(target);
        Files.createDirectories(target.getParent());
        writeGoldenContent(target);
        System.out.println("wrote " + target.toAbsolutePath());
    }

    private static void writeGoldenContent(final Path path)
    {
        try (FilterFile file = FilterFile.create(path, SPEC, CREATED_MILLIS))
        {
            final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
            for (int i = 0; i < file.tableLength() / 8; i++)
            {
                table.putLong(8 * i, tableWord(i));
            }
            final UnsafeBuffer state = new UnsafeBuffer(file.stateAddress(), (int)file.stateLength());
            state.putLong(0, STATE_WORD_0);
            state.putLong(8, STATE_WORD_1);
        }
    }

    private static long tableWord(final long i)
    {
        return i * 0x9E3779B97F4A7C15L;
    }

    private Path copyGolden(final String golden) throws IOException
    {
        final Path path = dir.resolve("golden.ddf");
        Files.write(path, readGolden(golden));
        // The key makes it owner-only; git does not keep that mode.
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        return path;
    }

    private static byte[] readGolden(final String golden) throws IOException
    {
        try (InputStream in = GoldenFileTest.class.getClassLoader().getResourceAsStream(golden))
        {
            assertNotNull(in, golden + " missing from test resources");
            return in.readAllBytes();
        }
    }
}
