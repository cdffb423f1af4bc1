package io.ddf.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.PERMISSIONS;

/**
 * Reads a file's header page with plain positional channel reads (no mapping, so nothing can grow or
 * change the file), validates it and checks that a file holding a key is private to its owner.
 */
final class HeaderReader
{
    private HeaderReader()
    {
    }

    /**
     * @param channel a channel open for reading on the file.
     * @param path    the file, for messages and the permission check.
     * @return the header page exactly as read, and the validated header.
     */
    static Result read(final FileChannel channel, final Path path)
    {
        try
        {
            final long fileLength = channel.size();
            final ByteBuffer page = ByteBuffer.allocate(FilterFileDescriptor.HEADER_LENGTH);
            while (page.hasRemaining())
            {
                if (channel.read(page, page.position()) < 0)
                {
                    break;
                }
            }
            page.flip();
            final FilterFileHeader header = HeaderCodec.decode(page, fileLength, path);
            if (header.spec().keyed())
            {
                checkOwnerOnly(path);
            }
            return new Result(page, header);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot read header: " + ex, ex);
        }
    }

    /**
     * Like ssh with private keys: a key readable by others is refused rather than used.
     */
    private static void checkOwnerOnly(final Path path) throws IOException
    {
        if (Files.getFileAttributeView(path, PosixFileAttributeView.class) == null)
        {
            return; // no POSIX permissions on this file system (e.g. Windows): nothing to check
        }
        final Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
        final Set<PosixFilePermission> ownerOnly = Set.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
        if (!ownerOnly.containsAll(perms))
        {
            throw new FilterFileException(PERMISSIONS, path, "holds a secret hash key but its permissions are " +
                PosixFilePermissions.toString(perms) + " (group/others have access); run: chmod 600 " + path);
        }
    }

    /**
     * @param page   the header page as read.
     * @param header the validated header.
     */
    record Result(ByteBuffer page, FilterFileHeader header)
    {
        /** @return a copy of the state region. */
        byte[] stateCopy()
        {
            final byte[] state = new byte[(int)header.stateLength()];
            page.get((int)header.stateOffset(), state);
            return state;
        }
    }
}
