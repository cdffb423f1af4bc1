package io.ddf.persistence;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.LOCKED;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;

/**
 * Opening an existing filter file: for writing (claimed in this process, OS-locked, its header validated before
 * anything is mapped, then unsealed: {@link FilterFile}), or for reading only (no lock, no change). A refused file is
 * left byte-for-byte unchanged, and whatever was claimed, mapped or locked on the way is released.
 */
final class FileOpening
{
    private FileOpening()
    {
    }

    /**
     * @param path            the file.
     * @param structure       the caller's structure check for a file its checksum cannot vouch for, or null.
     * @param onMismatch      what to do with a sealed file whose contents no longer match its checksum.
     * @param deferUnsealSync leave forcing the cleared seal to the caller ({@link FilterFiles#openAll}).
     * @return the file, open for writing.
     * @see FilterFile#open(Path, StructureCheck, OnSealMismatch)
     */
    static FilterFile open(final Path path, final StructureCheck structure,
        final OnSealMismatch onMismatch, final boolean deferUnsealSync)
    {
        Objects.requireNonNull(path, "path");
        RegularFiles.require(path);
        final Object registryKey;
        try
        {
            registryKey = OpenFileRegistry.claim(path);
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open: " + ex, ex);
        }

        RandomAccessFile raf = null;
        MappedRegion region = null;
        boolean done = false;
        try
        {
            // Opening read-write changes no byte; mapping waits until the header is validated.
            raf = new RandomAccessFile(path.toFile(), "rw");
            final FileLock lock = tryLock(raf.getChannel(), path);
            final FilterFileHeader header = HeaderReader.read(raf.getChannel(), path).header();
            final Path livePath = LivePlacement.liveFor(path);
            if (livePath == null)
            {
                region = new MappedRegion(path.toFile(), raf, header.fileLength(), path);
            }
            else
            {
                // the header was validated in the durable file; the live copy is mapped, the durable one written
                final LiveCopy.Opened live = LiveCopy.open(path, raf, livePath, LivePlacement.Header.FIXED, false);
                raf = null; // owned by the live copy now
                try
                {
                    region = new MappedRegion(livePath.toFile(), live.live(), header.fileLength(), path);
                }
                catch (final RuntimeException ex)
                {
                    live.copy().close();
                    throw ex;
                }
                region.live(live.copy());
            }
            final FilterFile file = new FilterFile(path, header, region, lock, registryKey);
            file.unseal(structure != null && onMismatch == OnSealMismatch.CHECK_STRUCTURE,
                deferUnsealSync);
            if (structure != null && file.tableCheck() != FilterFile.TableCheck.CHECKSUM_VERIFIED)
            {
                StructureCheck.run(file, structure);
            }
            if (file.tableCheck() == FilterFile.TableCheck.SEAL_MISMATCH)
            {
                file.clearMismatchedSeal(deferUnsealSync); // only now: a refused file is left unchanged
            }
            OpenFileRegistry.publish(registryKey, file);
            if (region.live() != null)
            {
                region.live().accept();
            }
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open for writing: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                if (region != null)
                {
                    region.release();
                }
                else
                {
                    closeQuietly(raf);
                }
                OpenFileRegistry.release(registryKey);
            }
        }
    }

    /**
     * @param path the file.
     * @return the file, mapped for reading only.
     * @see FilterFile#openReadOnly(Path)
     */
    static FilterFile openReadOnly(final Path path)
    {
        Objects.requireNonNull(path, "path");
        RegularFiles.require(path);
        RandomAccessFile raf = null;
        boolean done = false;
        try
        {
            if (OpenFileRegistry.holder(path) != null)
            {
                throw new FilterFileException(LOCKED, path, "is open for writing in this process; close it first");
            }
            raf = new RandomAccessFile(path.toFile(), "r");
            final FilterFileHeader header = HeaderReader.read(raf.getChannel(), path).header();
            final MappedRegion region = new MappedRegion(path.toFile(), raf, header.fileLength(), path, true);
            final FilterFile file = FilterFile.readOnly(path, header, region);
            done = true;
            return file;
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open for reading: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                closeQuietly(raf);
            }
        }
    }

    static FileLock tryLock(final FileChannel channel, final Path path) throws IOException
    {
        FileLock lock;
        try
        {
            lock = channel.tryLock();
        }
        catch (final OverlappingFileLockException ex)
        {
            lock = null; // this JVM holds it under another name the registry did not recognise
        }
        if (lock == null)
        {
            throw new FilterFileException(LOCKED, path,
                "is open for writing by another process; one writer at a time");
        }
        return lock;
    }

    static void closeQuietly(final RandomAccessFile raf)
    {
        if (raf != null)
        {
            try
            {
                raf.close();
            }
            catch (final IOException ignore)
            {
                // already failing; the original error matters more
            }
        }
    }
}
