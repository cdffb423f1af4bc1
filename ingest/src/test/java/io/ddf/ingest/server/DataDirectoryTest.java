package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon's data directory as clients see it (store.FilterStore, store.DataDirectory behind the RESP front):
 * foreign and corrupt files answered with their reason until DEL, leftovers of an unfinished creation removed, the
 * filter cap, owner-only permissions, filters and odd keys kept across a restart, DEL while another client adds.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DataDirectoryTest extends SharedServerTestBase
{
    @Test
    void foreignFilesAreReportedAnsweredWithTheirReasonAndDeletedByDel() throws IOException
    {
        final Path data = dir.resolve("foreign");
        Files.createDirectories(data);
        final byte[] junk = new byte[8192];
        new Random(1).nextBytes(junk);
        Files.write(data.resolve("junk.ddf"), junk);
        Files.writeString(data.resolve("notes.txt"), "not a filter\n");
        try (TestServer other = new TestServer(data, c -> { }); RespClient c = other.client())
        {
            final String log = other.log();
            assertTrue(log.contains("cannot open") && log.contains("junk.ddf"), log);
            assertTrue(log.contains("notes.txt"), log);
            assertTrue(log.contains("0 filters loaded"), log);
            final String error = c.call("BF.ADD", "junk", "a").toString();
            assertTrue(error.startsWith("-ERR") && error.contains("junk.ddf") &&
                error.contains("not a ddf filter file") && error.contains("DEL junk"), error);
            assertTrue(java.util.Arrays.equals(junk, Files.readAllBytes(data.resolve("junk.ddf"))),
                "left unchanged until DEL");
            assertEquals(1L, c.call("DEL", "junk"));
            assertFalse(Files.exists(data.resolve("junk.ddf")));
            assertEquals(1L, c.call("BF.ADD", "junk", "a"), "the key can be made again");
            assertEquals(1L, c.call("BF.ADD", "fine", "a"));
        }
        assertTrue(Files.exists(data.resolve("fine.ddfs")), "a filter that grows, the default");
    }

    @Test
    void aFilterWhoseTableChangedOnDiskIsRefusedNamingTheFileUntilDel() throws IOException
    {
        final Path data = dir.resolve("corrupt");
        // ddf's fixed-size filters, whose table's checksum this is about (--past-capacity forget)
        try (TestServer first = new TestServer(data, TestServer::forget); RespClient c = first.client())
        {
            assertEquals(1L, c.call("BF.ADD", "victim", "a"));
            assertEquals(1L, c.call("BF.ADD", "healthy", "a"));
        }
        // Flip a byte of the table (offset 4096 on) of the cleanly closed file.
        final Path victim = data.resolve("victim.ddf");
        final byte[] bytes = Files.readAllBytes(victim);
        bytes[4096 + 17] ^= 0x40;
        Files.write(victim, bytes);
        try (TestServer second = new TestServer(data, c -> { }); RespClient c = second.client())
        {
            assertTrue(second.log().contains("victim.ddf") && second.log().contains("table checksum mismatch"),
                second.log());
            final String error = c.call("BF.EXISTS", "victim", "a").toString();
            assertTrue(error.startsWith("-ERR") && error.contains("victim.ddf") && error.contains("checksum"), error);
            assertEquals(0L, c.call("BF.ADD", "healthy", "a"), "the other filters are served");
            assertEquals(1L, c.call("DEL", "victim"));
            assertEquals(1L, c.call("BF.ADD", "victim", "a"));
        }
    }

    @Test
    void leftoversOfAnUnfinishedCreationAreRemovedAtStartAndLogged() throws IOException
    {
        final Path data = dir.resolve("leftover");
        Files.createDirectories(data);
        final Path leftover = data.resolve(".ddf-creating-1234abcd-big.ddf");
        Files.write(leftover, new byte[65536]);
        try (TestServer server = new TestServer(data, c -> { }); RespClient c = server.client())
        {
            assertTrue(server.log().contains("removed " + leftover), server.log());
            assertFalse(Files.exists(leftover));
            assertEquals(1L, c.call("BF.ADD", "big", "a"));
        }
    }

    @Test
    void theFilterCapRefusesNamingTheLimitAndHowToRaiseIt() throws IOException
    {
        try (TestServer capped = new TestServer(dir.resolve("capped"), c -> c.maxFilters = 2);
             RespClient c = capped.client())
        {
            assertEquals(1L, c.call("BF.ADD", "a", "x"));
            assertEquals(1L, c.call("BF.ADD", "b", "x"));
            final String error = c.call("BF.ADD", "c", "x").toString();
            assertTrue(error.startsWith("-ERR filter limit reached") && error.contains("at most 2 filters") &&
                error.contains("--max-filters") && error.contains("ulimit -n"), error);
            assertTrue(c.call("BF.RESERVE", "d", "0.01", "100").toString().contains("filter limit reached"));
            assertEquals(1L, c.call("DEL", "a"));
            assertEquals(1L, c.call("BF.ADD", "c", "x"));
        }
    }

    @Test
    void theDataDirectoryIsOwnerOnly() throws IOException
    {
        final Path data = dir.resolve("private");
        try (TestServer server = new TestServer(data, c -> { }); RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "k", "x"));
        }
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data)));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data.resolve("k.ddfs"))));
    }

    @Test
    void restartKeepsFiltersAndOddKeysRoundTrip() throws IOException
    {
        final Path data = dir.resolve("restart");
        final String odd = "a/b c.%é";
        try (TestServer first = new TestServer(data, c -> { }); RespClient c = first.client())
        {
            assertEquals(1L, c.call("BF.ADD", odd, "x"));
            assertEquals(List.of(1L, 1L), c.call("BF.MADD", "plain", "x", "y"));
        }
        try (TestServer second = new TestServer(data, c -> { }); RespClient c = second.client())
        {
            assertTrue(second.log().contains("2 filters loaded"), second.log());
            assertEquals(0L, c.call("BF.ADD", odd, "x"));
            assertEquals(List.of(0L, 0L, 1L), c.call("BF.MADD", "plain", "x", "y", "z"));
        }
    }

    @Test
    void deleteWhileAnotherClientAdds() throws Exception
    {
        try (RespClient adder = server.client(); RespClient deleter = server.client())
        {
            final ByteArrayOutputStream many = new ByteArrayOutputStream();
            for (int i = 0; i < 5000; i++)
            {
                many.writeBytes(RespClient.encode("BF.ADD", "churn", "i" + i));
            }
            adder.sendRaw(many.toByteArray());
            for (int i = 0; i < 20; i++)
            {
                final Object deleted = deleter.call("DEL", "churn");
                assertTrue(deleted.equals(0L) || deleted.equals(1L), String.valueOf(deleted));
            }
            for (int i = 0; i < 5000; i++)
            {
                final Object reply = adder.read();
                assertTrue(reply.equals(0L) || reply.equals(1L), String.valueOf(reply));
            }
            assertEquals("PONG", adder.call("PING"));
        }
    }
}
