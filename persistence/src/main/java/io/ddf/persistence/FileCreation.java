package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

import static io.ddf.persistence.FilterFileDescriptor.HEADER_LENGTH;
import static io.ddf.persistence.FilterFileException.Reason.EXISTS;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FileOpening.closeQuietly;
import static io.ddf.persistence.FileOpening.tryLock;

/**
 * Making a new filter file ({@link FilterFile#create}): under a temporary name, blocks allocated, header written
 * and published, pages faulted in, then linked into place and the directory forced. See FORMAT.md, "Creation and
 * the ready protocol".
 */
final class FileCreation
{
    private FileCreation()
    {
    }

    static FilterFile createNamed(final Path path, final FilterFileHeader header)
    {
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
        {
            throw new FilterFileException(EXISTS, path, "already exists; refusing to overwrite it");
        }
        final Path directory = path.toAbsolutePath().getParent();
        final long fileLength = header.fileLength();
        Preallocator.checkSpace(directory, fileLength, path);
        // Built under a temporary name and renamed into place when complete: whenever the process dies, the
        // name shows either nothing or a whole file, never a partial one (issue 13: a kill -9 during a long
        // creation left a partial file that no later command could use or delete).
        final Path temp = Leftovers.temporaryFor(path);
        try
        {
            // O_CREAT|O_EXCL: never clobbers, and the file is private from its first instant.
            Files.createFile(temp, permissions());
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot create " + temp + ": " + ex, ex);
        }

        final Path livePath = LivePlacement.liveFor(path);
        final Path liveTemp = livePath == null ? null : Leftovers.temporaryFor(livePath);
        Object registryKey = null;
        RandomAccessFile raf = null;
        RandomAccessFile liveRaf = null;
        FilterFile file = null;
        boolean done = false;
        try
        {
            registryKey = OpenFileRegistry.claim(temp);
            raf = new RandomAccessFile(temp.toFile(), "rw");
            final FileLock lock = tryLock(raf.getChannel(), path);
            if (liveTemp == null)
            {
                file = initialise(path, temp.toFile(), directory, raf, header, lock, registryKey, null);
            }
            else
            {
                // the durable file's blocks reserved on the disk, the live copy's in RAM: a full disk or a full tmpfs
                // fails the creation, never a later force or store
                Preallocator.allocate(raf, fileLength, path, directory);
                final Path liveDirectory = liveTemp.getParent();
                Preallocator.checkSpace(liveDirectory, fileLength, path);
                Files.createFile(liveTemp, permissions());
                liveRaf = new RandomAccessFile(liveTemp.toFile(), "rw");
                final LiveCopy copy = new LiveCopy(path, liveTemp, raf, LivePlacement.Header.FIXED, 0);
                file = initialise(path, liveTemp.toFile(), liveDirectory, liveRaf, header, lock, registryKey, copy);
            }
            moveIntoPlace(temp, path);
            if (liveTemp != null)
            {
                // after the durable name: a death between the two leaves a file whose open restores the live copy
                Files.move(liveTemp, livePath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                file.region().live().renamed(path, livePath);
                file.region().live().accept();
            }
            syncDirectory(directory, path);
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot create: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                if (file != null)
                {
                    file.closeUnsealed();
                }
                else
                {
                    closeQuietly(raf);
                    closeQuietly(liveRaf);
                    OpenFileRegistry.release(registryKey);
                }
                deleteQuietly(temp);
                if (liveTemp != null)
                {
                    deleteQuietly(liveTemp);
                }
            }
        }
    }

    /**
     * Gives the finished file its name without ever replacing a file of that name: link(2) fails when the name
     * exists, atomically; the temporary name is then unlinked. Where hard links are not supported, an atomic
     * rename after a check (a file made under the name in between would be replaced).
     */
    static void moveIntoPlace(final Path temp, final Path path) throws IOException
    {
        try
        {
            Files.createLink(path, temp);
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new FilterFileException(EXISTS, path, "already exists (made while this one was being created); " +
                "refusing to overwrite it", ex);
        }
        catch (final UnsupportedOperationException | FileSystemException ex)
        {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
            {
                throw new FilterFileException(EXISTS, path, "already exists; refusing to overwrite it", ex);
            }
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        Files.deleteIfExists(temp);
    }

    /**
     * fsync the directory, so that the new name survives a power loss (a rename is a change of the directory).
     * Some platforms cannot open a directory for it; there the rename's durability is the file system's.
     */
    static void syncDirectory(final Path directory, final Path path)
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win"))
            {
                throw new FilterFileException(IO, path, "cannot fsync the directory " + directory + ": " + ex, ex);
            }
        }
    }

    static FilterFile createAnonymous(final FilterFileHeader header)
    {
        final Path directory = Path.of(System.getProperty("java.io.tmpdir"));
        Preallocator.checkSpace(directory, header.fileLength(), null);
        final Path temp;
        try
        {
            temp = Files.createTempFile(directory, "ddf-", ".filter", permissions());
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, null, "cannot create a temporary file in " + directory + ": " + ex, ex);
        }
        RandomAccessFile raf = null;
        boolean done = false;
        try
        {
            raf = new RandomAccessFile(temp.toFile(), "rw");
            // Unlinked at once: the descriptor (and later the mapping) keeps the data alive, and nothing is
            // left behind if the process dies, even by kill -9. No other process can open it, so no lock.
            Files.delete(temp);
            final FilterFile file = initialise(null, temp.toFile(), directory, raf, header, null, null, null);
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, null, "cannot create a temporary file in " + directory + ": " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                closeQuietly(raf);
                deleteQuietly(temp);
            }
        }
    }

    /**
     * Reserves, writes and publishes a new file. On failure the descriptor is closed (the caller deletes).
     *
     * @param live the durable side when {@code raf} is a live copy ({@link LivePlacement}), else null.
     */
    private static FilterFile initialise(
        final Path path, final File file, final Path directory, final RandomAccessFile raf,
        final FilterFileHeader header, final FileLock lock, final Object registryKey, final LiveCopy live)
        throws IOException
    {
        final FileChannel channel = raf.getChannel();
        final long fileLength = header.fileLength();
        final Reservation reservation = Preallocator.allocate(raf, fileLength, path, directory);
        writeFully(channel, HeaderCodec.encode(header.spec(), header.createdMillis()));
        // The fields and checksum reach the device before the ready word can: a crash leaves NOT_READY.
        channel.force(true);

        final MappedRegion region = new MappedRegion(file, raf, fileLength, path);
        region.live(live); // the sync below then writes the header page into the durable file (the rest is zeros)
        try
        {
            FilterFileDescriptor.putReadyWordRelease(new UnsafeBuffer(region.address(), HEADER_LENGTH));
            region.sync(path);
            // Off the hot path, and after the sync (which leaves every page clean, hence write-protected): the first
            // store into each page would otherwise take a fault there (issue 13: the first million inserts into a
            // fresh 4 GiB filter took 46-62 s, the next 1.4 s).
            region.prefaultForWrite();
            final FilterFile filterFile = new FilterFile(path, header, region, lock, registryKey);
            filterFile.reservation(reservation);
            filterFile.created();
            if (registryKey != null)
            {
                OpenFileRegistry.publish(registryKey, filterFile);
            }
            return filterFile;
        }
        catch (final RuntimeException ex)
        {
            region.release();
            throw ex;
        }
    }

    private static void writeFully(final FileChannel channel, final ByteBuffer buffer) throws IOException
    {
        long position = 0;
        buffer.position(0);
        while (buffer.hasRemaining())
        {
            position += channel.write(buffer, position);
        }
    }

    /** Owner-only (0600): a filter file may hold a secret key, and its contents tell what was seen. */
    static FileAttribute<?>[] permissions()
    {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
        {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
    }

    private static void deleteQuietly(final Path path)
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ignore)
        {
            // already failing; the original error matters more
        }
    }
}
