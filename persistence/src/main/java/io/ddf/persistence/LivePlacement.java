package io.ddf.persistence;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static io.ddf.persistence.FilterFileException.Reason.IO;

/**
 * Live placement: the filter files of a data directory mapped from copies on a tmpfs (the <em>live</em> copies),
 * while the files in the data directory stay the durable ones that every force writes to ({@link LiveCopy}) and
 * every tool reads. Why: a random-access table mapped from a disk file has every page dirtied and written back by the
 * kernel over and over (620-870 MB/s at 10^9 items, issue 31), and each written page is write-protected, so its next
 * store faults; a tmpfs mapping has no writeback, and the durable file then gets the table only at checkpoints.
 *
 * <p>A data directory is placed by {@link #install}; from then on every filter file created or opened for writing
 * under it ({@link FilterFile}, and {@link SegmentedFile} when the caller names its {@link LiveHeader}) is live,
 * under {@code <live root>/ddf-<uid>/<hash of the data directory's real path>/<the same relative path>}. The live
 * directory remembers the boot it was made in: after a reboot (a tmpfs is empty then anyway, but a live root on a
 * disk is not) everything in it is distrusted and removed, and each file is copied back from the data directory.
 */
public final class LivePlacement
{
    /** The value of {@code serve --live-dir} that keeps files in place. */
    public static final String NONE = "none";
    /** The default live root, when it is a tmpfs. */
    public static final Path SHM = Path.of("/dev/shm");
    private static final String BOOT_FILE = ".boot";
    /** Names the data directory a live directory is for: one whose data directory is gone is removed. */
    private static final String DATA_DIR_FILE = ".data-dir";
    private static final String TMPFS = "tmpfs";
    private static final int HASH_HEX_DIGITS = 16;
    /** Data directory (absolute, normalised; and its real path) to its live directory. */
    private static final Map<Path, Path> PLACED = new ConcurrentHashMap<>();

    private LivePlacement()
    {
    }

    /**
     * Places a data directory's filter files live under {@code liveRoot} until {@link #uninstall}.
     *
     * @param dataDir  the data directory, existing.
     * @param liveRoot the live root (e.g. /dev/shm).
     * @param bootId   the kernel's boot id now ({@code log.BootId}, which this package may not name).
     * @return the live directory of this data directory, made if need be.
     * @throws FilterFileException {@code IO} when the live directory cannot be made or cleaned.
     */
    public static Path install(final Path dataDir, final Path liveRoot, final String bootId)
    {
        try
        {
            final Path real = dataDir.toRealPath();
            final Path user = liveRoot.resolve("ddf-" + uid());
            final Path dir = user.resolve(hash(real.toString()));
            createPrivate(user);
            createPrivate(dir);
            final Path boot = dir.resolve(BOOT_FILE);
            final String now = bootId;
            if (!Files.isRegularFile(boot, LinkOption.NOFOLLOW_LINKS) ||
                !now.equals(Files.readString(boot, StandardCharsets.US_ASCII).trim()))
            {
                // made before a reboot (or by a build without this file): no copy in it can be trusted
                removeContents(dir);
                Files.writeString(boot, now + "\n", StandardCharsets.US_ASCII);
            }
            Files.writeString(dir.resolve(DATA_DIR_FILE), real + "\n", StandardCharsets.UTF_8);
            removeOrphans(real, dir);
            removeAbandoned(user, dir);
            PLACED.put(dataDir.toAbsolutePath().normalize(), dir);
            PLACED.put(real, dir);
            return dir;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, dataDir, "cannot prepare the live directory under " + liveRoot + ": " +
                ex, ex);
        }
    }

    /**
     * Ends the placement of a data directory (its files must be closed): files opened later are in place.
     *
     * @param dataDir the data directory given to {@link #install}.
     */
    public static void uninstall(final Path dataDir)
    {
        final Path dir = PLACED.remove(dataDir.toAbsolutePath().normalize());
        if (dir != null)
        {
            PLACED.values().removeIf(dir::equals);
        }
    }

    /**
     * @param dataDir a data directory.
     * @return its live directory, or null when it is not placed.
     */
    public static Path liveDirectory(final Path dataDir)
    {
        return PLACED.get(dataDir.toAbsolutePath().normalize());
    }

    /**
     * @param durable a file.
     * @return where its live copy is, or null when it is in place (its data directory is not placed).
     */
    public static Path liveFor(final Path durable)
    {
        if (PLACED.isEmpty())
        {
            return null;
        }
        final Path file = durable.toAbsolutePath().normalize();
        for (Path dir = file.getParent(); dir != null; dir = dir.getParent())
        {
            final Path live = PLACED.get(dir);
            if (live != null)
            {
                return live.resolve(dir.relativize(file).toString());
            }
        }
        return null;
    }

    /**
     * Deletes a (closed) filter file: its live copy, then the file (so that no live copy outlives its file).
     *
     * @param durable the file in the data directory.
     * @return whether the file existed.
     * @throws IOException as {@link Files#deleteIfExists}.
     */
    public static boolean delete(final Path durable) throws IOException
    {
        final Path live = liveFor(durable);
        if (live != null)
        {
            Files.deleteIfExists(live);
        }
        return Files.deleteIfExists(durable);
    }

    /**
     * The default live root of a data directory: /dev/shm when it is a tmpfs, the data directory is not on one, and
     * /dev/shm has room for every file in the data directory plus a margin (an eighth, at least 64 MiB).
     *
     * @param dataDir the data directory, existing.
     * @return /dev/shm, or null (in place), with why in {@code why}'s first element.
     */
    public static Path defaultRoot(final Path dataDir, final List<String> why)
    {
        try
        {
            if (!Files.isDirectory(SHM) || !TMPFS.equals(Files.getFileStore(SHM).type()))
            {
                why.add(SHM + " is not a tmpfs");
                return null;
            }
            if (TMPFS.equals(Files.getFileStore(dataDir).type()))
            {
                why.add("the data directory is on a tmpfs already");
                return null;
            }
            final long files = bytesIn(dataDir);
            final long need = files + Math.max(64L << 20, files / 8);
            final FileStore shm = Files.getFileStore(SHM);
            if (shm.getUsableSpace() < need)
            {
                why.add(SHM + " has " + shm.getUsableSpace() + " bytes free, the filters need " + need);
                return null;
            }
            why.add("the data directory is on " + Files.getFileStore(dataDir).type() + ", " + SHM + " is a tmpfs with " +
                shm.getUsableSpace() + " bytes free");
            return SHM;
        }
        catch (final IOException ex)
        {
            why.add("cannot inspect " + SHM + ": " + ex.getMessage());
            return null;
        }
    }

    private static long bytesIn(final Path dataDir) throws IOException
    {
        long bytes = 0;
        try (Stream<Path> files = Files.list(dataDir))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                {
                    bytes += Files.size(file);
                }
            }
        }
        return bytes;
    }

    /** Removes live copies whose durable file is gone (deleted while this process was down, or a stale creation). */
    private static void removeOrphans(final Path dataDir, final Path dir) throws IOException
    {
        final List<Path> orphans = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir))
        {
            files.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                .filter(f -> !f.getParent().equals(dir) || !BOOT_FILE.equals(f.getFileName().toString()) &&
                    !DATA_DIR_FILE.equals(f.getFileName().toString()))
                .filter(f -> Leftovers.isTemporary(f) ||
                    !Files.exists(dataDir.resolve(dir.relativize(f).toString()), LinkOption.NOFOLLOW_LINKS))
                .forEach(orphans::add);
        }
        for (final Path orphan : orphans)
        {
            Files.deleteIfExists(orphan);
        }
    }

    /**
     * Removes the live directories of data directories that no longer exist (a test's temporary directory, a data
     * directory deleted while its daemon was down): their copies would hold RAM until the next reboot.
     */
    private static void removeAbandoned(final Path user, final Path own) throws IOException
    {
        final List<Path> abandoned = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(user))
        {
            for (final Path other : (Iterable<Path>)dirs::iterator)
            {
                final Path named = other.resolve(DATA_DIR_FILE);
                if (!other.equals(own) && Files.isRegularFile(named, LinkOption.NOFOLLOW_LINKS) &&
                    !Files.exists(Path.of(Files.readString(named, StandardCharsets.UTF_8).trim())))
                {
                    abandoned.add(other);
                }
            }
        }
        for (final Path other : abandoned)
        {
            removeContents(other);
            Files.deleteIfExists(other);
        }
    }

    private static void removeContents(final Path dir) throws IOException
    {
        final List<Path> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir))
        {
            files.filter(f -> !f.equals(dir)).sorted(Comparator.reverseOrder()).forEach(entries::add);
        }
        for (final Path entry : entries)
        {
            Files.deleteIfExists(entry);
        }
    }

    private static void createPrivate(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix"))
            {
                Files.createDirectories(dir,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            else
            {
                Files.createDirectories(dir);
            }
        }
    }

    private static String uid()
    {
        try
        {
            return String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }
        catch (final IOException | UnsupportedOperationException | IllegalArgumentException ex)
        {
            return System.getProperty("user.name", "user");
        }
    }

    private static String hash(final String path)
    {
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_HEX_DIGITS);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
        }
    }
}
