package io.ddf.persistence;

import io.ddf.persistence.platform.JvmFlags;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.Objects;

import static io.ddf.persistence.FilterFileDescriptor.HEADER_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.MAJOR_VERSION;
import static io.ddf.persistence.FilterFileDescriptor.MINOR_VERSION;
import static io.ddf.persistence.FilterFileDescriptor.STATE_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.STATE_OFFSET;
import static io.ddf.persistence.FilterFileDescriptor.TABLE_OFFSET;
import static io.ddf.persistence.FilterFileException.Reason.TRUNCATED;

/**
 * One filter's file, open: a checksummed header, a mutable state region and the table, mapped with Chronicle Bytes
 * (see {@code FORMAT.md} beside this class for the byte layout, and {@link FilterFileDescriptor}). This class is the
 * handle and its lifecycle; its seal words are {@link FileSeal}'s, what of it is on the device {@link FileSync}'s,
 * making a file is {@link FileCreation}'s, opening one {@link FileOpening}'s, reading one without opening it
 * {@link FileInspection}'s, and opening or closing many at once {@link FilterFiles}'.
 *
 * <ul>
 *   <li>{@link #create}: the file is made under a temporary name, whole (a full disk fails here with
 *       {@link FilterFileException.Reason#NO_SPACE}, never while streaming), and renamed into place once ready:
 *       the name never points at a partial file. A null path makes an anonymous temporary file.</li>
 *   <li>{@link #open}: validates before changing anything and leaves a bad file byte-for-byte unchanged. A
 *       sealed (cleanly closed) file's table checksum is checked, then its seal cleared and forced; a file that
 *       was not closed cleanly needs the caller's structural check ({@link #tableCheck()}).</li>
 *   <li>{@link #close}: seals the file: writes the checksum of the state region and table, forces it when the
 *       contents changed since the last seal, then sets the seal word.</li>
 *   <li>One writer: an OS file lock held for the file's lifetime, plus an in-process registry so a second
 *       open in the same JVM fails with {@link FilterFileException.Reason#LOCKED} naming the file.</li>
 * </ul>
 *
 * <p>The addresses returned by {@link #tableAddress()} and {@link #stateAddress()} stay valid until
 * {@link #close()}; touching them afterwards touches unmapped memory and can crash the JVM.
 */
public final class FilterFile implements AutoCloseable
{
    private final Path path;
    private final FilterFileHeader header;
    private final MappedRegion region;
    private final FileLock lock;
    private final Object registryKey;
    private final long tableAddress;
    private final long tableLength;
    private final long stateAddress;
    private final long stateLength;
    private final boolean readOnly;
    private final FileSeal seal;
    private Reservation reservation = Reservation.UNKNOWN;
    /** What of the file is on the device. */
    private final FileSync sync;
    private boolean closed;

    /** What opening learned about the integrity of the table and state region. */
    public enum TableCheck
    {
        /** Created by this handle: zero everywhere. */
        NEW,
        /** The file was sealed (closed cleanly), and its table and state region match the seal's checksum. */
        CHECKSUM_VERIFIED,
        /** A 2.0 file that was not closed cleanly (a crash, or still open elsewhere): check its structure. */
        NOT_SEALED,
        /**
         * A 2.0 file that was sealed, but whose table and state no longer match the seal's checksum (a close by an
         * older ddf while a write was still landing, or a change on disk since): opened as after a crash, its
         * structure checked, when the opener asked for {@link OnSealMismatch#CHECK_STRUCTURE}; {@link #sealMismatch()}
         * says why.
         */
        SEAL_MISMATCH,
        /** A format 1.x file, which has no table checksum: check its structure. */
        NO_CHECKSUM_IN_FORMAT
    }

    FilterFile(
        final Path path, final FilterFileHeader header, final MappedRegion region, final FileLock lock,
        final Object registryKey)
    {
        this(path, header, region, lock, registryKey, false);
    }

    private FilterFile(
        final Path path, final FilterFileHeader header, final MappedRegion region, final FileLock lock,
        final Object registryKey, final boolean readOnly)
    {
        this.readOnly = readOnly;
        this.path = path;
        this.header = header;
        this.region = region;
        this.lock = lock;
        this.registryKey = registryKey;
        this.tableAddress = region.address() + header.tableOffset();
        this.tableLength = header.spec().tableLength();
        this.stateAddress = region.address() + header.stateOffset();
        this.stateLength = header.stateLength();
        this.seal = new FileSeal(path, region.address(), header.majorVersion(), stateAddress, stateLength,
            tableAddress, tableLength);
        this.sync = new FileSync(this, region, path, path != null && !readOnly, seal.lastSync());
    }

    /**
     * Creates a new filter file and maps it.
     *
     * @param path where to create it; null for an anonymous temporary file.
     * @param spec what to write in the header.
     * @return the mapped file, table and state zeroed.
     * @throws FilterFileException when the file exists, space is short, or I/O fails.
     */
    public static FilterFile create(final Path path, final FilterFileSpec spec)
    {
        return create(path, spec, System.currentTimeMillis());
    }

    /**
     * {@link #create(Path, FilterFileSpec)} with a given creation time, so tests can make identical files.
     */
    static FilterFile create(final Path path, final FilterFileSpec spec, final long createdMillis)
    {
        Objects.requireNonNull(spec, "spec");
        JvmFlags.require();
        final FilterFileHeader header = new FilterFileHeader(
            spec, MAJOR_VERSION, MINOR_VERSION, createdMillis, TABLE_OFFSET, STATE_OFFSET, STATE_LENGTH);
        return path == null ? FileCreation.createAnonymous(header) : FileCreation.createNamed(path, header);
    }

    /**
     * Opens and maps an existing filter file for writing, after validating its header.
     *
     * @param path the file.
     * @return the mapped file.
     * @throws FilterFileException for a foreign, corrupt, truncated, unready, locked or missing file.
     */
    public static FilterFile open(final Path path)
    {
        return open(path, null);
    }

    /**
     * Opens and maps an existing filter file for writing, after validating its header and, when it is not
     * sealed, its structure.
     *
     * @param path      the file.
     * @param structure checks the table and state of a file whose checksum cannot vouch for them ({@link #tableCheck()}
     *                  is {@code NOT_SEALED} or {@code NO_CHECKSUM_IN_FORMAT}), reading only; null for none.
     * @return the mapped file.
     * @throws FilterFileException for a foreign, corrupt, truncated, unready, locked or missing file, a sealed file
     *                             whose checksum does not match, or one that fails the structure check ({@code
     *                             CORRUPT}); a refused file is left unchanged.
     */
    public static FilterFile open(final Path path, final StructureCheck structure)
    {
        return open(path, structure, OnSealMismatch.REFUSE);
    }

    /**
     * Opens and maps an existing filter file for writing, after validating its header and, when it is not
     * sealed or (with {@link OnSealMismatch#CHECK_STRUCTURE}) its seal does not match, its structure.
     *
     * @param path       the file.
     * @param structure  checks the table and state of a file whose checksum cannot vouch for them, reading only; null
     *                   for none (a seal that does not match is then refused whatever {@code onMismatch} says).
     * @param onMismatch what to do with a sealed file whose contents no longer match its checksum.
     * @return the mapped file.
     * @throws FilterFileException as {@link #open(Path, StructureCheck)}.
     */
    public static FilterFile open(final Path path, final StructureCheck structure, final OnSealMismatch onMismatch)
    {
        JvmFlags.require();
        return FileOpening.open(path, structure, onMismatch, false);
    }

    /**
     * Maps an existing filter file for reading only, after validating its header: no lock, no change to the
     * file (not even of its seal). For checking a file ({@code ddf verify}); the table may change under the
     * reader if a writer has it open.
     *
     * @param path the file.
     * @return the mapped file; {@link #tableCheck()} says whether the file is sealed and its checksum matches,
     *         without throwing when it does not ({@link #checksumMatches()} tells).
     * @throws FilterFileException for a foreign, corrupt, truncated, unready or missing file, or one this
     *                             process holds open for writing (opening another descriptor of it would drop the
     *                             holder's lock).
     */
    public static FilterFile openReadOnly(final Path path)
    {
        JvmFlags.require();
        return FileOpening.openReadOnly(path);
    }

    /** The handle of a file mapped for reading: whether it is sealed, read from its seal word. */
    static FilterFile readOnly(final Path path, final FilterFileHeader header, final MappedRegion region)
    {
        final FilterFile file = new FilterFile(path, header, region, null, null, true);
        file.seal.readOnly();
        return file;
    }

    /**
     * At open for writing: checks a sealed file's checksum, then clears the seal and forces the header page, so
     * that no change to the table can reach the disk while the disk still says the file is sealed.
     */
    void unseal(final boolean recoverMismatch, final boolean deferSync)
    {
        final long durable = seal.unseal(recoverMismatch);
        if (durable >= 0)
        {
            sync.durableAt(durable);
            if (!deferSync)
            {
                forceHeader();
            }
        }
    }

    /**
     * After the structure of a file whose seal did not match passed: clears the seal and forces the header page
     * (unless the caller forces it later), as {@link #unseal} does for a file whose seal matched.
     */
    void clearMismatchedSeal(final boolean deferSync)
    {
        seal.clearMismatched();
        if (!deferSync)
        {
            forceHeader();
        }
    }

    /**
     * @return what opening learned about the table: a caller that gets anything but {@link TableCheck#NEW} or
     *         {@link TableCheck#CHECKSUM_VERIFIED} should check the table's structure before trusting it.
     */
    public TableCheck tableCheck()
    {
        return seal.check();
    }

    /** @return why the seal did not match the contents when {@link #tableCheck()} is SEAL_MISMATCH, else null. */
    public String sealMismatch()
    {
        return seal.mismatch();
    }

    /**
     * @return whether the stored checksum matches the state region and table hashed now. Read-only handles
     *         ({@link #openReadOnly}): a sealed file must match; an unsealed one, if unchanged since its last flush.
     */
    public boolean checksumMatches()
    {
        checkOpen();
        checkLength();
        return header.majorVersion() >= 2 && seal.stored() == seal.compute();
    }

    /** @return the stored table checksum (0 in a 1.x file or before the first seal or flush). */
    public long storedChecksum()
    {
        return seal.stored();
    }

    /**
     * A file truncated by another process raises SIGBUS when a page past its new end is touched, which kills the
     * JVM (see FORMAT.md, "Files changed from outside"): hashing and forcing check the length first.
     */
    void checkLength()
    {
        final long now = region.currentFileLength(path);
        if (now < region.length())
        {
            throw new FilterFileException(TRUNCATED, path, "was truncated while open: " + region.length() +
                " bytes mapped, " + now + " bytes now; touching the lost pages would crash the process " +
                "(delete the file and create it again)");
        }
    }

    /**
     * Reads and validates a file's header and a copy of its state region without locking, mapping or changing it.
     * When this JVM holds the file open, the snapshot comes from that handle: opening and closing another
     * channel of the file would drop the holder's lock.
     *
     * @param path the file.
     * @return what the header and state region hold.
     */
    public static FilterFileSnapshot inspect(final Path path)
    {
        return FileInspection.inspect(path);
    }

    /**
     * @return what this file holds now (header fields and a copy of the state region), or null once closed.
     */
    public synchronized FilterFileSnapshot snapshot()
    {
        if (closed)
        {
            return null;
        }
        final byte[] state = new byte[(int)stateLength];
        new UnsafeBuffer(stateAddress, (int)stateLength).getBytes(0, state);
        return new FilterFileSnapshot(
            header.spec(), header.majorVersion(), header.minorVersion(), header.createdMillis(), region.length(), state);
    }

    /** @return the header's immutable fields. */
    public FilterFileSpec spec()
    {
        return header.spec();
    }

    /** @return format major version of the file. */
    public int majorVersion()
    {
        return header.majorVersion();
    }

    /** @return format minor version of the file. */
    public int minorVersion()
    {
        return header.minorVersion();
    }

    /** @return creation time, epoch milliseconds. */
    public long createdMillis()
    {
        return header.createdMillis();
    }

    /** @return how creation reserved the file's blocks ({@link Reservation#UNKNOWN} for a file opened). */
    public Reservation reservation()
    {
        return reservation;
    }

    void reservation(final Reservation how)
    {
        this.reservation = how;
    }

    /** A file just created: its every page was forced at creation. */
    void created()
    {
        sync.durableAt(header.createdMillis());
    }

    /** @return whether this is an anonymous temporary file, gone once closed. */
    public boolean temporary()
    {
        return path == null;
    }

    /** @return the file's length in bytes, all of it mapped. */
    public long fileLength()
    {
        return region.length();
    }

    /** @return absolute address of the table's first byte (64-byte aligned). Valid until {@link #close()}. */
    public long tableAddress()
    {
        return tableAddress;
    }

    /** @return length of the table in bytes. */
    public long tableLength()
    {
        return tableLength;
    }

    /**
     * @return absolute address of the state region (counters and other mutable state, 64-byte aligned).
     *         Valid until {@link #close()}.
     */
    public long stateAddress()
    {
        return stateAddress;
    }

    /** @return length of the state region in bytes. */
    public long stateLength()
    {
        return stateLength;
    }

    /** @return the file's path, or null for an anonymous file. */
    public Path path()
    {
        return path;
    }

    /** @return what of the file is on the device: its changed pages, forced by a sync policy. */
    public FileSync sync()
    {
        return sync;
    }

    /**
     * Writes the table checksum and forces the mapped pages to the storage device (msync, fsync). Without it,
     * process death (even kill -9) loses nothing written to the mapping, but power loss or a kernel crash may lose
     * what was written since. The checksum is of the contents at the moment of hashing; a file still being written
     * stays unsealed, and only {@code ddf verify} reports whether it still matches.
     */
    public synchronized void flush()
    {
        checkOpen();
        checkWritable();
        checkLength();
        final long start = System.currentTimeMillis();
        if (sealable())
        {
            seal.storeChecksum();
        }
        region.sync(path);
        sync.forced(start);
    }

    /**
     * Seals the file (below), unmaps it and releases its lock (closing its one descriptor). Idempotent. Deletes
     * nothing.
     *
     * <p>Sealing: hash the state region and table; when they changed since the file was opened (or it was not
     * sealed then), store the checksum and force the file (msync, fsync) so the table is on the device before the
     * seal can be; then set the seal word. An unchanged file costs the hashing only, and no write to the device.
     * A crash before the seal word leaves the file unsealed: its next open checks its structure instead.
     *
     * @throws FilterFileException {@code TRUNCATED} when another process truncated the file (it is unmapped and
     *                             released anyway, and left unsealed).
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            if (sealable())
            {
                sealAt(System.currentTimeMillis());
            }
        }
        finally
        {
            release();
        }
    }

    private void sealAt(final long start)
    {
        if (storeChecksumIfChanged())
        {
            force();
            putSeal(start);
        }
        else
        {
            putSeal(sync.lastSyncAtOpen());
        }
    }

    /**
     * First half of sealing: hashes the contents and, when they changed since they were verified at open, stores
     * the checksum.
     *
     * @return whether the file must be forced before its seal word may be set.
     */
    boolean storeChecksumIfChanged()
    {
        checkLength();
        return seal.storeChecksumIfChanged();
    }

    /** @return whether {@link #close()} would still seal the file: open, writable, named, of format 2 or later. */
    boolean sealPending()
    {
        return !closed && sealable();
    }

    /** Sets the seal word and the last sync time, unforced ({@link FileSeal#put}). */
    void putSeal(final long lastSync)
    {
        seal.put(lastSync);
    }

    /** Forces the whole mapped file to the device. */
    void force()
    {
        region.sync(path);
    }

    /** A change log's checkpoint (FORMAT-LOG.md): dirty pages msync'ed, fsync, no table checksum, writers go on; the
     *  header's last sync time then is the force's start (unforced: the checkpoint forces the header next). */
    public void forcePages()
    {
        checkOpen();
        checkWritable();
        checkLength();
        final long start = System.currentTimeMillis();
        force();
        seal.putLastSync(start);
    }

    /** Forces the header page to the device (after the seal was cleared; the change log's fields). */
    public void forceHeader()
    {
        checkOpen();
        region.syncPrefix(HEADER_LENGTH, path);
    }

    /** @return the address of the mapped header page (the change log's fields, FORMAT-LOG.md, live there). */
    public long headerAddress()
    {
        checkOpen();
        return region.address();
    }

    /** For {@link FilterFiles#closeAll}, which unmaps many files together: marks this one closed.
     *  @return whether it was open: then the caller releases its {@link #region()} and {@link #registryKey()}. */
    boolean markClosed()
    {
        if (closed)
        {
            return false;
        }
        closed = true;
        sync.stop();
        return true;
    }

    MappedRegion region()
    {
        return region;
    }

    Object registryKey()
    {
        return registryKey;
    }

    /** Unmaps and releases without (further) sealing. Idempotent. */
    synchronized void closeUnsealed()
    {
        if (!closed)
        {
            closed = true;
            release();
        }
    }

    private void release()
    {
        try
        {
            sync.stop();
            // Chronicle closes the descriptor when it releases the mapping, which releases the lock with it.
            region.release();
        }
        finally
        {
            OpenFileRegistry.release(registryKey);
        }
    }

    private boolean sealable()
    {
        return !readOnly && path != null && header.majorVersion() >= 2;
    }

    void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException((path == null ? "anonymous filter file" : path.toString()) + " is closed");
        }
    }

    private void checkWritable()
    {
        if (readOnly)
        {
            throw new IllegalStateException(path + " is open for reading only");
        }
    }

    /** @return whether the OS lock is held (always false for an anonymous file, which needs none). */
    public boolean locked()
    {
        return lock != null && lock.isValid();
    }

    @Override
    public String toString()
    {
        return "FilterFile{" + (path == null ? "anonymous" : path) + ", " + header.spec() + '}';
    }
}
