package io.ddf.persistence.platform;

import net.openhft.posix.PosixAPI;

/**
 * What the engine tells the kernel about a table's mapping (madvise), in one place for both kinds of file: the fixed
 * ones ({@code MappedRegion}) and the growing ones ({@code SegmentedFile}).
 */
public final class MappingAdvice
{
    /** Linux's MADV_HUGEPAGE: back the range with transparent huge pages where the memory behind it can be. */
    private static final int MADV_HUGEPAGE = 14;
    /** Linux's MADV_NOHUGEPAGE: no transparent huge pages under the range. */
    private static final int MADV_NOHUGEPAGE = 15;
    /** Linux's MADV_RANDOM: no read-ahead on faults in the range (so the page cache fills it page by page). */
    private static final int MADV_RANDOM = 1;
    /** Linux's MADV_POPULATE_WRITE (5.14+): populate page tables writable, as if each page were written. */
    private static final int MADV_POPULATE_WRITE = 23;
    /** The smallest page size of any platform: touching every such page touches every page. */
    private static final long SMALLEST_PAGE = 4096;

    private MappingAdvice()
    {
    }

    /** Which pages a mapping wants: a table's random updates want huge ones, a log's small appends small ones. */
    public enum Pages
    {
        /** {@link #hugePages}: a table's mapping. */
        HUGE,
        /** {@link #smallPages}: a change log segment's mapping. */
        SMALL
    }

    /**
     * Gives a fresh mapping the advice its kind wants, before anything faults it in.
     *
     * @param address the mapping's first byte, page-aligned.
     * @param length  its bytes.
     * @param pages   the kind of pages it wants.
     */
    public static void advise(final long address, final long length, final Pages pages)
    {
        if (pages == Pages.HUGE)
        {
            hugePages(address, length);
        }
        else
        {
            smallPages(address, length);
        }
    }

    /**
     * Asks for huge pages (2 MiB on x86_64) under a table's mapping, before anything faults it in. A table takes
     * random one-cache-line updates: with 4 KiB pages a 1.4 GB table is 350,000 page table entries, each cleaned and
     * write-protected by every writeback of the file and faulted writable again by the next store into it (measured,
     * 10^9 items at 1 %, `--fsync no`, bench/results/daemon/bigtable-2026-11-29.md: 400-700 faults per 1000 BF.ADDs,
     * 20-45 µs of CPU per BF.ADD against 2 µs). Huge, the same writeback costs one fault per 2 MiB. On Linux 6.x an ext4
     * file's page cache holds the range in 2 MiB folios once this is set (large folios), mapped by one entry each.
     * A hint: where the kernel or file system cannot (no THP, a tmpfs mounted without {@code huge=}), it does nothing
     * and the table works on 4 KiB pages as before; a refusal (EINVAL) is ignored for the same reason.
     *
     * @param address the mapping's first byte, page-aligned.
     * @param length  its bytes.
     */
    public static void hugePages(final long address, final long length)
    {
        PosixAPI.posix().madvise(address, length, MADV_HUGEPAGE);
    }

    /**
     * Keeps a mapping on 4 KiB pages of the page cache: for a change log's segments, which are appended and forced a
     * few bytes at a time. A dirty large folio (2 MiB, which {@link #hugePages} and the read-ahead of a populated ext4
     * file give on Linux 6.x) is written whole by each force: under {@code --fsync always} every group commit wrote
     * 2.35 MB for a few KB of records (bench/results/daemon/2026-11-29-1e9-before-smallpages.md: 697 MB/s written at
     * 133,120 BF.ADD/s). Without huge pages and without read-ahead the faults allocate one page each, and a force
     * writes the pages its records changed. A hint, as {@link #hugePages} is.
     *
     * @param address the mapping's first byte, page-aligned.
     * @param length  its bytes.
     */
    public static void smallPages(final long address, final long length)
    {
        PosixAPI.posix().madvise(address, length, MADV_NOHUGEPAGE);
        PosixAPI.posix().madvise(address, length, MADV_RANDOM);
    }

    /**
     * Faults every page of a mapping in, writable, now: the first store into each page of a fresh file otherwise
     * takes a write fault on the hot path (measured, 1 GiB file, 2 cores: the first million random inserts 20.9 s
     * against 0.85 s for the second; prefaulted, 0.25 s for the prefault and 0.25 s for the first million).
     * {@link #populateForWrite} does it in one call; elsewhere {@link #touchForWrite}.
     *
     * @param address the mapping's first byte, page-aligned.
     * @param length  its bytes.
     */
    public static void prefaultForWrite(final long address, final long length)
    {
        if (!populateForWrite(address, length))
        {
            touchForWrite(address, length);
        }
    }

    /**
     * {@code madvise(MADV_POPULATE_WRITE)} (Linux 5.14): the kernel faults the range's pages in, writable, changing
     * no byte. On a guest whose hypervisor shadows its page tables (this project's PVM machine) the first store to
     * each page through the mapping still pays the shadow's fill (~7 µs): {@link #touchForWrite} after it takes that
     * too (bench/scripts/PagePopulateProbe.java: 155 ns a 32-byte record on fresh pages, 52-58 after this call, 11
     * after another thread's store a page).
     *
     * @param address the range's first byte, page-aligned.
     * @param length  its bytes.
     * @return whether the kernel did it (false: an older kernel, or a range it refuses).
     */
    public static boolean populateForWrite(final long address, final long length)
    {
        return PosixAPI.posix().madvise(address, length, MADV_POPULATE_WRITE) == 0;
    }

    /**
     * Stores into every 4 KiB page that bytes [address, address + length) fall in, changing no byte: one locked add
     * of 0 to the page's first word, a single atomic read-modify-write that stores what the word holds, so that a
     * store of another thread to it cannot fall between its read and its write (safe beside writers of the range).
     * The page is then present and writable in every page table, the guest's and a shadowing hypervisor's: the next
     * writer's first store takes no fault. The store dirties a file's page (written back with its bytes unchanged):
     * for pages about to be written anyway.
     *
     * @param address the range's first byte, in a mapping (a page's first word is then mapped too).
     * @param length  its bytes.
     * @return the pages touched.
     */
    public static long touchForWrite(final long address, final long length)
    {
        long pages = 0;
        for (long page = address & -SMALLEST_PAGE; page < address + length; page += SMALLEST_PAGE)
        {
            RawMemory.getAndAddLong(page, 0);
            pages++;
        }
        return pages;
    }
}
