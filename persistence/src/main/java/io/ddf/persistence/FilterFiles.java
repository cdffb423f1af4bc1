package io.ddf.persistence;

import io.ddf.persistence.platform.JvmFlags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * Many filter files at once: a daemon's start-up ({@link #openAll}) and shutdown ({@link #closeAll}). Each file is
 * opened or closed as {@link FilterFile} does one, but what must reach the device is forced together: one
 * {@code syncfs} per file system instead of a device flush per file (issue 13: 18,000 filters took 24.9 s to stop
 * one by one), so the time grows with the data changed, not with the number of files. Where syncfs is unavailable,
 * each file is forced in turn.
 */
public final class FilterFiles
{
    private FilterFiles()
    {
    }

    /**
     * One file of {@link #openAll}.
     *
     * @param path    the file.
     * @param file    the open file, or null.
     * @param failure why it was refused, or null.
     */
    public record Opened(Path path, FilterFile file, FilterFileException failure)
    {
    }

    /**
     * Opens many files, each as {@link FilterFile#open(Path, StructureCheck)} does, but forcing their
     * cleared seals together. No file may be written before this returns.
     *
     * @param paths     the files.
     * @param structure the structure check, or null.
     * @return per path, in order: the open file, or why it was refused.
     * @throws FilterFileException {@code IO} when syncfs fails.
     */
    public static List<Opened> openAll(final List<Path> paths, final StructureCheck structure)
    {
        return openAll(paths, structure, OnSealMismatch.REFUSE);
    }

    /**
     * Opens many files, each as {@link FilterFile#open(Path, StructureCheck, OnSealMismatch)}
     * does, but forcing their cleared seals together. No file may be written before this returns.
     *
     * @param paths      the files.
     * @param structure  the structure check, or null.
     * @param onMismatch what to do with a sealed file whose contents no longer match its checksum.
     * @return per path, in order: the open file, or why it was refused.
     * @throws FilterFileException {@code IO} when syncfs fails.
     */
    public static List<Opened> openAll(final List<Path> paths, final StructureCheck structure,
        final OnSealMismatch onMismatch)
    {
        JvmFlags.require();
        final List<Opened> opened = new ArrayList<>(paths.size());
        final List<FilterFile> unsealed = new ArrayList<>();
        for (final Path path : paths)
        {
            try
            {
                final FilterFile file = FileOpening.open(path, structure, onMismatch, true);
                opened.add(new Opened(path, file, null));
                if (file.tableCheck() == FilterFile.TableCheck.CHECKSUM_VERIFIED ||
                    file.tableCheck() == FilterFile.TableCheck.SEAL_MISMATCH)
                {
                    unsealed.add(file);
                }
            }
            catch (final FilterFileException e)
            {
                opened.add(new Opened(path, null, e));
            }
        }
        if (!syncFileSystems(unsealed, null))
        {
            for (final FilterFile file : unsealed)
            {
                file.forceHeader();
            }
        }
        return opened;
    }

    /**
     * Closes many files, each as {@link FilterFile#close()} does, forcing the changed ones together. Every file is
     * closed even when some fail; the first failure is thrown after, the others suppressed in it.
     *
     * @param files open files; closed ones are skipped.
     * @throws FilterFileException the first failure (e.g. {@code TRUNCATED}).
     */
    public static void closeAll(final Collection<FilterFile> files)
    {
        final long start = System.currentTimeMillis();
        final List<FilterFile> changed = new ArrayList<>();
        final List<RuntimeException> failures = new ArrayList<>();
        for (final FilterFile file : files)
        {
            synchronized (file)
            {
                if (!file.sealPending())
                {
                    continue;
                }
                try
                {
                    if (file.storeChecksumIfChanged())
                    {
                        changed.add(file);
                    }
                    else
                    {
                        file.putSeal(file.sync().lastSyncAtOpen()); // an unchanged file keeps the time found
                    }
                }
                catch (final RuntimeException e)
                {
                    failures.add(e);
                    file.closeUnsealed();
                }
            }
        }
        final boolean synced = syncFileSystems(changed, failures);
        for (final FilterFile file : changed)
        {
            synchronized (file)
            {
                try
                {
                    if (!synced)
                    {
                        file.force();
                    }
                    file.putSeal(start);
                }
                catch (final RuntimeException e)
                {
                    failures.add(e);
                }
            }
        }
        final List<MappedRegion> regions = new ArrayList<>();
        final List<Object> registryKeys = new ArrayList<>();
        for (final FilterFile file : files)
        {
            synchronized (file)
            {
                if (file.markClosed())
                {
                    regions.add(file.region());
                    registryKeys.add(file.registryKey());
                }
            }
        }
        try
        {
            MappedRegion.releaseAll(regions);
        }
        catch (final RuntimeException e)
        {
            failures.add(e);
        }
        finally
        {
            registryKeys.forEach(OpenFileRegistry::release);
        }
        if (!failures.isEmpty())
        {
            final RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /**
     * Forces what changed in many files since their last syncs (the once-a-second sync of a process's filters): each
     * as {@link FileSync#syncChanges} does, one msync (a device flush) each, until {@link #BATCH_MIN} of them have
     * changed; the changed files after those are written back together, with one {@code syncfs} per file system
     * (the cycle's time then grows with the data changed, not with the number of files). A file's sync lock is held
     * from taking its marks until its pages are on the device, as in a single sync, so a writer's own sync still
     * returns only once its changes are there; a file forced alone is released at once, as before.
     *
     * <p>One call at a time ({@link #BATCH}): a call holds the locks of the files it writes back together, taken in
     * its list's order, and two calls with different orders could otherwise wait for each other. A single file's
     * sync takes only its own lock.
     *
     * @param files        open files, each tracking its changes (others are skipped).
     * @param stateChanged per file, whether its state region changed since its last sync (asked under its lock).
     * @param failed       gets each file whose sync failed (its pages stay marked for the next sync).
     * @return the files forced and their changed pages.
     */
    public static Synced syncChanges(final List<FilterFile> files, final List<BooleanSupplier> stateChanged,
        final BiConsumer<FilterFile, RuntimeException> failed)
    {
        BATCH.lock();
        try
        {
            final long now = System.currentTimeMillis();
            final List<FilterFile> held = new ArrayList<>();
            final List<ChangeSync.Pending> pending = new ArrayList<>();
            int changed = 0;
            int forced = 0;
            long pages = 0;
            try
            {
                for (int i = 0; i < files.size(); i++)
                {
                    final FilterFile file = files.get(i);
                    final ChangeSync sync = file.sync().changes();
                    if (sync == null)
                    {
                        continue;
                    }
                    sync.lock().lock();
                    boolean keep = false;
                    try
                    {
                        if (sync.closedNow())
                        {
                            continue;
                        }
                        file.checkLength();
                        final ChangeSync.Pending p = sync.prepare(stateChanged.get(i), now);
                        if (p == null)
                        {
                            continue;
                        }
                        if (++changed < BATCH_MIN)
                        {
                            sync.force(p);
                            forced++;
                            pages += p.span().count();
                        }
                        else
                        {
                            held.add(file);
                            pending.add(p);
                            keep = true;
                        }
                    }
                    catch (final RuntimeException e)
                    {
                        failed.accept(file, e);
                    }
                    finally
                    {
                        if (!keep)
                        {
                            sync.lock().unlock();
                        }
                    }
                }
                // a syncfs that fails or cannot be trusted here: each file is forced instead, which reports its own
                final boolean together = !held.isEmpty() && syncFileSystems(held, new ArrayList<>());
                for (int i = 0; i < held.size(); i++)
                {
                    final ChangeSync sync = held.get(i).sync().changes();
                    try
                    {
                        if (together)
                        {
                            sync.completed(pending.get(i));
                        }
                        else
                        {
                            sync.force(pending.get(i));
                        }
                        forced++;
                        pages += pending.get(i).span().count();
                    }
                    catch (final RuntimeException e)
                    {
                        failed.accept(held.get(i), e);
                    }
                }
                return new Synced(forced, pages, together);
            }
            finally
            {
                for (final FilterFile file : held)
                {
                    file.sync().changes().lock().unlock();
                }
            }
        }
        finally
        {
            BATCH.unlock();
        }
    }

    /** Lets one {@link #syncChanges} run at a time. */
    private static final ReentrantLock BATCH = new ReentrantLock();

    /**
     * The changed file from which on {@link #syncChanges} writes back the file systems rather than each file:
     * {@code -Dddf.sync.batchMin} (a measurement's knob; 0 or 1 always batches, a huge value never does). 64: a
     * cycle's median with one changed page per filter (bench/scripts/SyncCycleCost.java, ext4, load 10-18) was 52 ms
     * file by file against 188 ms together at 32 filters, 367 ms against 38 ms at 128, 1,962 ms against 254 ms at
     * 1,000 (all or none together); syncfs also waits for other programs' dirty data, which is why few files are
     * forced one by one. With this default, 1,000 filters: 358 ms (63 alone, the rest together) against 131 ms all
     * together and 3,208 ms none (02:45 UTC, load 16-18).
     */
    static final int BATCH_MIN = Integer.getInteger("ddf.sync.batchMin", 64);

    /**
     * What {@link #syncChanges} did.
     *
     * @param files    files whose changes were forced.
     * @param pages    their changed 4 KiB pages.
     * @param together whether the changed files after the first {@link #BATCH_MIN} - 1 were written back at once
     *                 (syncfs) rather than each.
     */
    public record Synced(int files, long pages, boolean together)
    {
    }

    /**
     * The one place the batch writes back: {@code syncfs} once per file system the files are on.
     *
     * @param files    the files whose writes must reach the device.
     * @param failures where a syncfs failure goes (the caller then forces each file); null to let it be thrown.
     * @return true when every file system was written back; false when the caller must force each file itself
     *         (syncfs unavailable here, or failed).
     */
    private static boolean syncFileSystems(final List<FilterFile> files, final List<RuntimeException> failures)
    {
        final Set<Path> directories = new LinkedHashSet<>();
        for (final FilterFile file : files)
        {
            if (file.region().live() != null)
            {
                return false; // a live copy's pages are on a tmpfs: only its own force writes them to the disk
            }
            directories.add(file.path().toAbsolutePath().getParent());
        }
        boolean synced = true;
        for (final Path directory : directories)
        {
            try
            {
                synced &= FileSystemSync.sync(directory);
            }
            catch (final RuntimeException e)
            {
                if (failures == null)
                {
                    throw e;
                }
                failures.add(e);
                synced = false;
            }
        }
        return synced;
    }
}
