package io.ddf.persistence;

import io.ddf.persistence.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A filter file's name appears only when the file is complete, whenever the creating process dies. */
class AtomicCreationTest extends MappedMemoryTestBase
{
    /**
     * Large enough that its pages take a good part of a second to fault in after the file appears under its
     * temporary name, so the kill lands mid-creation (with fallocate the file is full length at once).
     */
    private static final long BIG_TABLE = 2L << 30;

    @TempDir
    Path dir;

    @Test
    void killDuringCreationLeavesNoFileUnderTheNameAndItsLeftoverIsRemoved() throws Exception
    {
        final Path path = dir.resolve("big.ddf");
        final Process child = startCreator(path);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            assertEquals("CREATING", out.readLine());
            // Wait until the temporary file exists and is growing, then kill -9.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (temporaries().isEmpty() || Files.size(temporaries().get(0)) < (64L << 20))
            {
                assertTrue(System.nanoTime() < deadline, "the creator never started writing");
                assertTrue(child.isAlive(), "the creator finished before it could be killed");
                Thread.sleep(5);
            }
            assertFalse(Files.exists(path), "the name appeared before the file was complete");
            child.destroyForcibly(); // SIGKILL on Linux
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertFalse(Files.exists(path), "a killed creation left a file under the name");
        final List<Path> leftovers = temporaries();
        assertEquals(1, leftovers.size(), "the partial file stays under its temporary name");

        assertEquals(leftovers, Leftovers.remove(dir));
        assertTrue(temporaries().isEmpty());
        // The name is free: the filter can be made again.
        try (FilterFile file = FilterFile.create(path, TestFiles.smallSpec()))
        {
            assertTrue(file.locked());
        }
    }

    @Test
    void aTemporaryFileStillBeingCreatedIsNotRemoved() throws Exception
    {
        final Path path = dir.resolve("held.ddf");
        // This process holds a temporary name (as a creation in progress would): simulate with an open file there.
        final Path temp = Leftovers.temporaryFor(path);
        try (FilterFile file = FilterFile.create(temp, TestFiles.smallSpec()))
        {
            assertTrue(Leftovers.remove(dir).isEmpty());
            assertTrue(Files.exists(temp));
            assertTrue(file.locked(), "looking at the file must not drop its lock");
        }
    }

    @Test
    void filesAreOwnerOnly() throws IOException
    {
        final Path path = dir.resolve("private.ddf");
        TestFiles.createClosed(path, TestFiles.smallSpec());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
    }

    private List<Path> temporaries() throws IOException
    {
        try (Stream<Path> list = Files.list(dir))
        {
            return list.filter(Leftovers::isTemporary).sorted().toList();
        }
    }

    private static Process startCreator(final Path path) throws IOException
    {
        return ChildJvm.start(CreateProbe.class, path.toString(), Long.toString(BIG_TABLE));
    }
}
