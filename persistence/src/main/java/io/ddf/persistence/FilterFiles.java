package io.ddf.persistence;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
     * Opens many files, each as {@link FilterFile#open(Path, FilterFile.StructureCheck)} does, but forcing their
     * cleared seals together. No file may be written before this returns.
     *
     * @param paths     the files.
     * @param structure the structure check, or null.
     * @return per path, in order: the open file, or why it was refused.
     * @throws FilterFileException {@code IO} when syncfs fails.
     */
    public static List<Opened> openAll(final List<Path> paths, final FilterFile.StructureCheck structure)
    {
        final List<Opened> opened = new ArrayList<>(paths.size());
        final List<FilterFile> unsealed = new ArrayList<>();
        for (final Path path : paths)
        {
            try
            {
                final FilterFile file = FileOpening.open(path, structure, true);
                opened.add(new Opened(path, file, null));
                if (file.tableCheck() == FilterFile.TableCheck.CHECKSUM_VERIFIED)
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
                        file.putSeal(file.lastSyncFound());
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
