package io.ddf.persistence.platform;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;

import java.util.Locale;

/**
 * The libc calls Java does not offer, straight from libc through JNA (which Chronicle's posix library brings):
 * {@code syncfs}, {@code fallocate}, {@code fstat}'s allocated blocks and the {@code membarrier} system call. Linux only: elsewhere {@link #available()}
 * is false and callers take their portable way.
 *
 * <p>Why not Chronicle's {@code PosixAPI.fallocate}: when the file system refuses fallocate it falls back to
 * {@code ftruncate} and reports success, so a file it "allocated" on such a file system is sparse (issue 24).
 */
public final class Libc
{
    /** EOPNOTSUPP on Linux. */
    public static final int EOPNOTSUPP = 95;
    /** ENOSPC. */
    public static final int ENOSPC = 28;
    private static final int POSIX_FADV_DONTNEED = 4;

    /** Offsets of st_size and st_blocks in struct stat: the same on x86_64 and aarch64, the two Linux ABIs run on. */
    private static final int ST_SIZE_OFFSET = 48;
    private static final int ST_BLOCKS_OFFSET = 64;
    private static final int STAT_BUFFER = 256;
    /** membarrier(2)'s system call number: glibc has no wrapper for it. */
    private static final long SYS_MEMBARRIER = "aarch64".equals(System.getProperty("os.arch")) ? 283 : 324;

    private static final Calls CALLS = load();

    private Libc()
    {
    }

    /** The functions, as JNA binds them. */
    interface Calls extends Library
    {
        /**
         * @param fd any descriptor on the file system.
         * @return 0, or -1 with errno set.
         */
        int syncfs(int fd);

        /**
         * @param fd     a descriptor open for writing.
         * @param mode   0: allocate, and grow the file to cover the range.
         * @param offset first byte.
         * @param length bytes.
         * @return 0, or -1 with errno set.
         */
        int fallocate(int fd, int mode, long offset, long length);

        /**
         * @param fd     a descriptor.
         * @param buffer at least sizeof(struct stat).
         * @return 0, or -1 with errno set.
         */
        int fstat(int fd, Memory buffer);

        /**
         * syscall(2), for membarrier: the number, then the command, flags and cpu id (all integers, which the
         * x86_64 and aarch64 Linux ABIs pass alike to a variadic function).
         *
         * @param number the system call's number.
         * @param cmd    membarrier's command.
         * @param flags  0.
         * @param cpuId  0.
         * @return the call's result, or -1 with errno set.
         */
        long syscall(long number, int cmd, int flags, int cpuId);

        /**
         * @param fd     a descriptor.
         * @param offset first byte.
         * @param length bytes (0: to the end).
         * @param advice POSIX_FADV_*.
         * @return 0, or an errno (not -1: posix_fadvise returns its error).
         */
        int posix_fadvise(int fd, long offset, long length, int advice);
    }

    private static Calls load()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") ||
            !System.getProperty("os.arch", "").matches("amd64|x86_64|aarch64"))
        {
            return null;
        }
        try
        {
            return Native.load("c", Calls.class);
        }
        catch (final LinkageError | RuntimeException unavailable)
        {
            return null;
        }
    }

    /** @return whether these calls can be made here (Linux x86_64 or aarch64 with JNA). */
    public static boolean available()
    {
        return CALLS != null;
    }

    /**
     * @param fd a descriptor on the file system.
     * @return 0, or the errno of a failure.
     */
    public static int syncfs(final int fd)
    {
        return CALLS.syncfs(fd) == 0 ? 0 : Native.getLastError();
    }

    /**
     * fallocate(2) with mode 0 over [0, length): every block allocated, the file grown to {@code length}.
     *
     * @param fd     a descriptor open for writing.
     * @param length bytes.
     * @return 0, or the errno of a failure (EOPNOTSUPP where the file system cannot).
     */
    public static int fallocate(final int fd, final long length)
    {
        return CALLS.fallocate(fd, 0, 0, length) == 0 ? 0 : Native.getLastError();
    }

    /**
     * fallocate(2) with mode 0 over [offset, offset + length): the blocks of a range allocated (a file that grows).
     *
     * @param fd     a descriptor open for writing.
     * @param offset the range's first byte.
     * @param length bytes.
     * @return 0, or the errno of a failure.
     */
    public static int fallocate(final int fd, final long offset, final long length)
    {
        return CALLS.fallocate(fd, 0, offset, length) == 0 ? 0 : Native.getLastError();
    }

    /**
     * @param fd           a descriptor.
     * @param expectedSize the file's length, which the answer must show for its layout of struct stat to be trusted.
     * @return the bytes the file system has allocated to the file (st_blocks × 512), or -1 when unknown (the call
     *         failed, the function is missing from this libc, or st_size did not read as {@code expectedSize}).
     */
    public static long allocatedBytes(final int fd, final long expectedSize)
    {
        try
        {
            final Memory stat = new Memory(STAT_BUFFER); // freed by its cleaner: once per file created
            stat.clear();
            if (CALLS.fstat(fd, stat) != 0 || stat.getLong(ST_SIZE_OFFSET) != expectedSize)
            {
                return -1;
            }
            return stat.getLong(ST_BLOCKS_OFFSET) * 512;
        }
        catch (final UnsatisfiedLinkError olderLibc)
        {
            return -1; // glibc before 2.33 exports __fxstat, not fstat
        }
    }

    /**
     * posix_fadvise(POSIX_FADV_DONTNEED): drops the clean cached pages of a range, so that a file written only to be
     * durable (a live-placed filter's durable copy, {@code LivePlacement}) does not hold its size in the page cache
     * too. Advice only: does nothing where these calls are unavailable.
     *
     * @param fd     a descriptor.
     * @param offset first byte.
     * @param length bytes.
     */
    public static void dropCached(final int fd, final long offset, final long length)
    {
        if (CALLS != null && fd >= 0)
        {
            CALLS.posix_fadvise(fd, offset, length, POSIX_FADV_DONTNEED);
        }
    }

    /**
     * membarrier(2).
     *
     * @param cmd the command (MEMBARRIER_CMD_*).
     * @return the call's non-negative result, or minus the errno of a failure (-38, ENOSYS, where the kernel or a
     *         seccomp filter lacks it).
     */
    public static long membarrier(final int cmd)
    {
        final long result = CALLS.syscall(SYS_MEMBARRIER, cmd, 0, 0);
        return result >= 0 ? result : -Native.getLastError();
    }
}
