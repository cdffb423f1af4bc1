package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

import static io.ddf.persistence.FilterFileDescriptor.HEADER_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.LAST_SYNC_OFFSET;
import static io.ddf.persistence.FilterFileDescriptor.SEAL_OFFSET;
import static io.ddf.persistence.FilterFileDescriptor.SEAL_VALUE;
import static io.ddf.persistence.FilterFileDescriptor.TABLE_CHECKSUM_OFFSET;
import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;

/**
 * A mapped filter file's seal: the header's seal word, table checksum and last sync time, and what opening learned
 * from them ({@link FilterFile.TableCheck}). A file closed cleanly carries the seal word and the checksum of its
 * state region and table; opening it for writing checks the checksum and clears the word ({@link #unseal}), and
 * closing it sets the word again after the contents are forced ({@link FilterFile#close()}, {@link FilterFiles}).
 * The handle ({@link FilterFile}) decides when; this class reads and writes the words and keeps the result.
 */
final class FileSeal
{
    private final Path path;
    private final long headerAddress;
    private final int majorVersion;
    private final long stateAddress;
    private final long stateLength;
    private final long tableAddress;
    private final long tableLength;
    private FilterFile.TableCheck check = FilterFile.TableCheck.NEW;
    /** The checksum the file was sealed with when opened, valid when {@link #check} is CHECKSUM_VERIFIED. */
    private long checksumAtOpen;
    /** Why the seal did not match, when {@link #check} is SEAL_MISMATCH. */
    private String mismatch;

    FileSeal(
        final Path path, final long headerAddress, final int majorVersion, final long stateAddress,
        final long stateLength, final long tableAddress, final long tableLength)
    {
        this.path = path;
        this.headerAddress = headerAddress;
        this.majorVersion = majorVersion;
        this.stateAddress = stateAddress;
        this.stateLength = stateLength;
        this.tableAddress = tableAddress;
        this.tableLength = tableLength;
    }

    /** @return what opening learned about the table. */
    FilterFile.TableCheck check()
    {
        return check;
    }

    /** @return why the seal did not match the contents (check SEAL_MISMATCH), or null. */
    String mismatch()
    {
        return mismatch;
    }

    /** A file mapped for reading: whether it is sealed, read from its seal word, and changed nothing. */
    void readOnly()
    {
        check = majorVersion < 2 ? FilterFile.TableCheck.NO_CHECKSUM_IN_FORMAT :
            word() == SEAL_VALUE ? FilterFile.TableCheck.CHECKSUM_VERIFIED : FilterFile.TableCheck.NOT_SEALED;
    }

    /**
     * At open for writing: checks a sealed file's checksum, then stores the last sync time and clears the seal word
     * (neither forced: the caller forces the header page).
     *
     * @param recoverMismatch whether a sealed file whose contents no longer match its checksum is taken as after a
     *                        crash (check SEAL_MISMATCH, nothing written: the caller checks its structure, then
     *                        {@link #clearMismatched()}), rather than refused.
     * @return the time as of which the file is durable (now: a sealed file had every page on the device and nothing
     *         changed since), or -1 when it was not sealed (or its format has no seal, or its seal did not match) and
     *         nothing was written.
     * @throws FilterFileException {@code CORRUPT} for a seal word that is neither value, or a sealed file whose
     *                             contents no longer match its checksum unless recovered; the file is left unchanged.
     */
    long unseal(final boolean recoverMismatch)
    {
        if (majorVersion < 2)
        {
            check = FilterFile.TableCheck.NO_CHECKSUM_IN_FORMAT;
            return -1;
        }
        final int seal = word();
        if (seal == 0)
        {
            check = FilterFile.TableCheck.NOT_SEALED;
            return -1;
        }
        if (seal != SEAL_VALUE)
        {
            throw new FilterFileException(CORRUPT, path, "seal word 0x" + Integer.toHexString(seal) +
                " is neither 0 (open or crashed) nor 0x" + Integer.toHexString(SEAL_VALUE) + " (closed cleanly); " +
                "the file is left unchanged");
        }
        final long stored = stored();
        final long computed = compute();
        if (stored != computed)
        {
            final String reason = "table checksum mismatch: the file was closed cleanly with checksum 0x" +
                Long.toHexString(stored) + " but its table and state now hash to 0x" + Long.toHexString(computed) +
                ", so they changed since the seal (on disk, or by a write still landing when it was sealed)";
            if (recoverMismatch)
            {
                mismatch = reason;
                check = FilterFile.TableCheck.SEAL_MISMATCH;
                return -1;
            }
            throw new FilterFileException(CORRUPT, path, reason + "; the file is left unchanged " +
                "(ddf verify reports the same without opening it for writing)");
        }
        checksumAtOpen = computed;
        check = FilterFile.TableCheck.CHECKSUM_VERIFIED;
        final long now = System.currentTimeMillis();
        header().putLongVolatile(LAST_SYNC_OFFSET, now);
        FilterFileDescriptor.clearSealWordVolatile(header());
        return now;
    }

    /**
     * A file opened despite a seal that did not match, once its structure passed: clears the seal word (not forced:
     * the caller forces the header page), so that the file reads as open, as it is.
     */
    void clearMismatched()
    {
        FilterFileDescriptor.clearSealWordVolatile(header());
    }

    /** @return the stored table checksum (0 in a 1.x file or before the first seal or flush). */
    long stored()
    {
        return majorVersion < 2 ? 0 : header().getLongVolatile(TABLE_CHECKSUM_OFFSET);
    }

    /** @return the checksum of the state region and table as they are now. */
    long compute()
    {
        return TableChecksum.compute(stateAddress, stateLength, tableAddress, tableLength,
            TableChecksum.defaultParallelism());
    }

    /** Stores the checksum of the contents now (a flush). */
    void storeChecksum()
    {
        header().putLongVolatile(TABLE_CHECKSUM_OFFSET, compute());
    }

    /**
     * First half of sealing: hashes the contents and, when they changed since they were verified at open, stores
     * the checksum.
     *
     * @return whether the file must be forced before its seal word may be set.
     */
    boolean storeChecksumIfChanged()
    {
        final long checksum = compute();
        if (check == FilterFile.TableCheck.CHECKSUM_VERIFIED && checksum == checksumAtOpen)
        {
            return false;
        }
        header().putLongVolatile(TABLE_CHECKSUM_OFFSET, checksum);
        return true;
    }

    /**
     * Sets the seal word, and the last sync time: when the sealing began for a changed file (every change was made
     * before it), the time found at open for an unchanged one (still true, and the file is then left as it was found,
     * byte for byte). Neither is forced: if they are lost, the file is merely unsealed, checked by structure at its
     * next open, with the last sync time of before.
     *
     * @param lastSync the time to store.
     */
    void put(final long lastSync)
    {
        header().putLongVolatile(LAST_SYNC_OFFSET, lastSync);
        FilterFileDescriptor.putSealWordRelease(header());
    }

    /** @param lastSync the time before which every change is on the device (a checkpoint's start), unforced. */
    void putLastSync(final long lastSync)
    {
        header().putLongVolatile(LAST_SYNC_OFFSET, lastSync);
    }

    /** @return the header's last sync time (0 in a 1.x file). */
    long lastSync()
    {
        return majorVersion < 2 ? 0 : header().getLongVolatile(LAST_SYNC_OFFSET);
    }

    private int word()
    {
        return header().getIntVolatile(SEAL_OFFSET);
    }

    private UnsafeBuffer header()
    {
        return new UnsafeBuffer(headerAddress, HEADER_LENGTH);
    }
}
