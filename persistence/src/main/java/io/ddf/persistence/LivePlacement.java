package io.ddf.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * under it ({@link FilterFile}, and {@link SegmentedFile} when the caller names its {@link Header}) is live,
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
    /** Live copy to what its last open did with it (kept, or restored and why), for the daemon's log and INFO. */
    private static final Map<Path, String> OPENINGS = new ConcurrentHashMap<>();

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
            OPENINGS.keySet().removeIf(live -> live.startsWith(dir));
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
     * @param liveDirectory a live directory ({@link #install}'s answer).
     * @return what the opens since the install did with each live copy in it, by file name: "kept (...)" or
     *         "restored from the data directory: why" (a file created since has none).
     */
    public static Map<String, String> openings(final Path liveDirectory)
    {
        final Map<String, String> found = new java.util.TreeMap<>();
        OPENINGS.forEach((live, what) ->
        {
            if (live.getParent().equals(liveDirectory))
            {
                found.put(live.getFileName().toString(), what);
            }
        });
        return found;
    }

    static void opened(final Path live, final String what)
    {
        OPENINGS.put(live, what);
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
            why.add("the data directory is on " + Files.getFileStore(dataDir).type() + ", " + SHM +
                " is a tmpfs with " +
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

    /**
     * Where a format keeps, in its first page, what a live-placed file's open ({@link LivePlacement}) needs to decide
     * whether the live copy still belongs to the durable file: the bytes that name the file (fixed at creation), the
     * change log's checkpoint position and boot id (FORMAT-LOG.md), and the closed-cleanly word.
     *
     * @param identity       pairs of [from, to) byte ranges that never change after creation; equal in both copies
     *                       of one file.
     * @param checkpoint     offset of the checkpoint position (int64): the durable copy's may not be ahead of the
     *                       live's.
     * @param bootId         offset of the 16-byte boot id at open, cleared in a copy restored from the durable file so
     *                       that its open replays the log instead of trusting a page cache that did not survive.
     * @param seal           offset of the closed-cleanly word (int32).
     * @param sealValue      its value when closed cleanly.
     */
    public record Header(int[] identity, int checkpoint, int bootId, int seal, int sealValue)
    {
        /** LogBinding.FILTER_FILE_OFFSET (the log package names this one, so not the other way round). */
        private static final int FIXED_BINDING = 272;
        /** Where the change log's checkpoint position lies in its 48 header bytes (LogBinding, FORMAT-LOG.md). */
        public static final int CHECKPOINT_IN_BINDING = 16;
        /** Where the boot id at open lies in them. */
        public static final int BOOT_ID_IN_BINDING = 32;

        /** The first page: every field above lies in it. */
        static final int BYTES = (int)SegmentedFile.PAGE;
        private static final int BOOT_ID_BYTES = 16;

        /** Fixed-size filter files (FORMAT.md 2.0 with FORMAT-LOG.md's fields). */
        public static final Header FIXED = new Header(new int[] {0, FilterFileDescriptor.READY_OFFSET},
            FIXED_BINDING + CHECKPOINT_IN_BINDING, FIXED_BINDING + BOOT_ID_IN_BINDING, FilterFileDescriptor.SEAL_OFFSET,
            FilterFileDescriptor.SEAL_VALUE);

        /**
         * @param identity   as the record's.
         * @param checkpoint as the record's.
         * @param bootId     as the record's.
         * @param seal       as the record's.
         * @param sealValue  as the record's.
         */
        public Header
        {
            identity = identity.clone();
            if (identity.length == 0 || identity.length % 2 != 0)
            {
                throw new IllegalArgumentException("identity ranges come in [from, to) pairs");
            }
        }

        @Override
        public int[] identity()
        {
            return identity.clone();
        }

        /** @return whether two first pages name the same file. */
        boolean sameIdentity(final ByteBuffer a, final ByteBuffer b)
        {
            for (int i = 0; i < identity.length; i += 2)
            {
                if (!a.slice(identity[i], identity[i + 1] - identity[i]).equals(
                    b.slice(identity[i], identity[i + 1] - identity[i])))
                {
                    return false;
                }
            }
            return true;
        }

        long checkpointOf(final ByteBuffer page)
        {
            return page.order(ByteOrder.LITTLE_ENDIAN).getLong(checkpoint);
        }

        boolean sealed(final ByteBuffer page)
        {
            return page.order(ByteOrder.LITTLE_ENDIAN).getInt(seal) == sealValue;
        }

        /** @return the 16 zero bytes a restored copy gets as its boot id. */
        static byte[] noBootId()
        {
            return new byte[BOOT_ID_BYTES];
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Header h && Arrays.equals(identity, h.identity) && checkpoint == h.checkpoint &&
                bootId == h.bootId && seal == h.seal && sealValue == h.sealValue;
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(identity) * 31 + checkpoint;
        }

        @Override
        public String toString()
        {
            return "Header" + Arrays.toString(identity) + "@" + checkpoint;
        }
    }
}
