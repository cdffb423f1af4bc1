package io.ddf.engine.internal;

import io.ddf.engine.changelog.FilterLog;
import io.ddf.engine.changelog.LogScheduler;
import io.ddf.engine.changelog.ReplayTarget;
import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.LoggedCore;
import io.ddf.engine.spi.TimedCore;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;
import io.ddf.persistence.FilterFiles;
import io.ddf.persistence.OnSealMismatch;
import io.ddf.persistence.StructureCheck;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.Recovery;

import java.nio.file.Path;
import java.util.Arrays;

/** Maps a file to the filter its header describes, and reads and checks what a header says. */
public final class FilterFactory
{
    private static final System.Logger LOG = System.getLogger("io.ddf.engine");

    private FilterFactory()
    {
    }

    /**
     * @param path       the file to create, or null for an anonymous one.
     * @param spec       its header.
     * @param definition the kind's definition (the spec's kind code).
     * @param slots      resolved parameters (the spec's parameter slots).
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots)
    {
        return create(path, spec, definition, slots, false);
    }

    /**
     * @param path         the file to create, or null for an anonymous one.
     * @param spec         its header.
     * @param definition   the kind's definition (the spec's kind code).
     * @param slots        resolved parameters (the spec's parameter slots).
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots, final boolean singleWriter)
    {
        return create(path, spec, definition, slots, singleWriter, SyncMode.UNTRACKED);
    }

    /**
     * @param path         the file to create, or null for an anonymous one (never synced).
     * @param spec         its header.
     * @param definition   the kind's definition (the spec's kind code).
     * @param slots        resolved parameters (the spec's parameter slots).
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @param sync         how its changes reach the device.
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots, final boolean singleWriter, final SyncMode sync)
    {
        return create(path, spec, definition, slots, singleWriter, sync, null);
    }

    /**
     * @param path         the file to create, or null for an anonymous one (never synced).
     * @param spec         its header.
     * @param definition   the kind's definition (the spec's kind code).
     * @param slots        resolved parameters (the spec's parameter slots).
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @param sync         how its changes reach the device.
     * @param wallClock    what a filter with a window of time on the wall clock reads, or null for
     *                     {@link CoarseClock#SYSTEM}.
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots, final boolean singleWriter, final SyncMode sync, final FilterClock wallClock)
    {
        if (!OwnLog.wanted(path, sync))
        {
            return wrap(FilterFile.create(path, spec), definition, slots, false, singleWriter, SyncMode.UNTRACKED,
                null, false, wallClock);
        }
        final boolean logExisted = java.nio.file.Files.exists(OwnLog.directoryFor(path));
        final ChangeLog log = OwnLog.open(path, spec.tableLength(), singleWriter);
        try
        {
            return wrap(FilterFile.create(path, spec), definition, slots, false, singleWriter, sync, log, true, wallClock);
        }
        catch (final RuntimeException e)
        {
            log.close();
            if (!logExisted)
            {
                OwnLog.discard(path);
            }
            throw e;
        }
    }

    /**
     * @param path an existing filter file.
     * @return the filter, its state as the file holds it, recovered from any crash mid-update.
     * @throws FilterFileException when the file is missing, foreign, corrupt, truncated, unready, held by another
     *                             writer, or its header names an unknown kind or hash or inconsistent parameters.
     */
    public static MappedFilter open(final Path path)
    {
        return open(path, false);
    }

    /**
     * @param path         an existing filter file.
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @return the filter, its state as the file holds it, recovered from any crash mid-update.
     * @throws FilterFileException as {@link #open(Path)}.
     */
    public static MappedFilter open(final Path path, final boolean singleWriter)
    {
        return open(path, singleWriter, SyncMode.UNTRACKED);
    }

    /**
     * @param path         an existing filter file.
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @param sync         how its changes reach the device.
     * @return the filter, its state as the file holds it, recovered from any crash mid-update.
     * @throws FilterFileException as {@link #open(Path)}.
     */
    public static MappedFilter open(final Path path, final boolean singleWriter, final SyncMode sync)
    {
        return open(path, singleWriter, sync, null);
    }

    /**
     * @param path         an existing filter file.
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @param sync         how its changes reach the device.
     * @param wallClock    what a filter with a window of time on the wall clock reads (and its open applies), or
     *                     null for {@link CoarseClock#SYSTEM}.
     * @return the filter, its state as the file holds it, recovered from any crash mid-update.
     * @throws FilterFileException as {@link #open(Path)}.
     */
    public static MappedFilter open(final Path path, final boolean singleWriter, final SyncMode sync,
        final FilterClock wallClock)
    {
        // The header is checked before the structure: the structure check needs the kind and its parameters. A seal
        // that does not match is taken as a crash: the structure decides, and the reason is logged.
        final ChangeLog log = OwnLog.wanted(path, sync) ? OwnLog.open(path, 0, singleWriter) : null;
        final MappedFilter filter;
        try
        {
            filter = wrapOpened(FilterFile.open(path, FilterFactory::checkStructure, OnSealMismatch.CHECK_STRUCTURE),
                singleWriter, log == null ? SyncMode.UNTRACKED : sync, log, log != null, wallClock);
        }
        catch (final RuntimeException e)
        {
            if (log != null)
            {
                log.close();
            }
            throw e;
        }
        if (filter.foundAtOpen() == FilterFile.TableCheck.SEAL_MISMATCH)
        {
            LOG.log(System.Logger.Level.WARNING, "ddf: " + path + ": " + filter.sealMismatch() + "; opened as " +
                "after a crash: its structure checked and recovered");
        }
        return filter;
    }

    /**
     * @param path         an existing filter file.
     * @param singleWriter whether the filter runs in single-writer mode (see {@link MappedFilter#singleWriter()}).
     * @param log          the change log it is written through (FORMAT-LOG.md: the open decides whether to replay).
     * @param wallClock    as for {@link #open(Path, boolean, SyncMode, FilterClock)}.
     * @return the filter, its state as the file holds it, recovered (replayed after a restart of the machine).
     * @throws FilterFileException as {@link #open(Path)}.
     */
    public static MappedFilter open(final Path path, final boolean singleWriter, final ChangeLog log,
        final FilterClock wallClock)
    {
        final MappedFilter filter = wrapOpened(FilterFile.open(path, FilterFactory::checkStructure,
            OnSealMismatch.CHECK_STRUCTURE), singleWriter, SyncMode.LOG_SHARED, log, false, wallClock);
        if (filter.foundAtOpen() == FilterFile.TableCheck.SEAL_MISMATCH)
        {
            LOG.log(System.Logger.Level.WARNING, "ddf: " + path + ": " + filter.sealMismatch() + "; opened as " +
                "after a crash: its structure checked and recovered");
        }
        return filter;
    }

    /**
     * Opens many filter files written through one change log, as {@link #openAll(java.util.List, SyncMode,
     * java.util.function.BiConsumer)} does, each as {@link #open(Path, boolean, io.ddf.persistence.log.ChangeLog, FilterClock)}.
     *
     * @param paths    the files.
     * @param log       the change log.
     * @param wallClock the wall clock of the filters with a window of time, or null for {@link CoarseClock#SYSTEM}.
     * @param onOpened  receives each path and its filter, or its failure, in order.
     */
    public static void openAll(final java.util.List<Path> paths, final ChangeLog log, final FilterClock wallClock,
        final java.util.function.BiConsumer<Path, Object> onOpened)
    {
        for (final FilterFiles.Opened opened : FilterFiles.openAll(paths, FilterFactory::checkStructure))
        {
            if (opened.file() == null)
            {
                onOpened.accept(opened.path(), opened.failure());
                continue;
            }
            try
            {
                onOpened.accept(opened.path(), wrapOpened(opened.file(), false, SyncMode.LOG_SHARED, log, false,
                    wallClock));
            }
            catch (final RuntimeException e)
            {
                onOpened.accept(opened.path(), e);
            }
        }
    }

    /**
     * @param path         the file to create.
     * @param spec         its header.
     * @param definition   the kind's definition.
     * @param slots        resolved parameters.
     * @param singleWriter whether the filter runs in single-writer mode.
     * @param log          the change log it is written through.
     * @param wallClock    as for {@link #create(Path, FilterFileSpec, KindDefinition, long[], boolean, SyncMode,
     *                     FilterClock)}.
     * @return the filter over the new, zeroed file.
     */
    public static MappedFilter create(final Path path, final FilterFileSpec spec, final KindDefinition definition,
        final long[] slots, final boolean singleWriter, final ChangeLog log, final FilterClock wallClock)
    {
        return wrap(FilterFile.create(path, spec), definition, slots, false, singleWriter, SyncMode.LOG_SHARED, log,
            false, wallClock);
    }

    /**
     * Opens many filter files, forcing what opening changes in them together (see {@link FilterFiles#openAll}).
     *
     * @param paths the files.
     * @param onOpened receives each path and its filter, or its failure, in order.
     */
    public static void openAll(final java.util.List<Path> paths,
        final java.util.function.BiConsumer<Path, Object> onOpened)
    {
        openAll(paths, SyncMode.UNTRACKED, onOpened);
    }

    /**
     * Opens many filter files, forcing what opening changes in them together (see {@link FilterFiles#openAll}).
     * Unlike {@link #open(Path, boolean, SyncMode)}, a sealed file whose contents no longer match its checksum is
     * refused (a daemon serves no file changed on disk since its clean close; its operator decides).
     *
     * @param paths    the files.
     * @param sync     how their changes reach the device.
     * @param onOpened receives each path and its filter, or its failure, in order.
     */
    public static void openAll(final java.util.List<Path> paths, final SyncMode sync,
        final java.util.function.BiConsumer<Path, Object> onOpened)
    {
        openAll(paths, sync, null, onOpened);
    }

    /**
     * As {@link #openAll(java.util.List, SyncMode, java.util.function.BiConsumer)}, the filters with a window of time
     * on the given wall clock (what it reads at the open is the time applied).
     *
     * @param paths     the files.
     * @param sync      how their changes reach the device.
     * @param wallClock the wall clock of the filters with a window of time, or null for {@link CoarseClock#SYSTEM}.
     * @param onOpened  receives each path and its filter, or its failure, in order.
     */
    public static void openAll(final java.util.List<Path> paths, final SyncMode sync, final FilterClock wallClock,
        final java.util.function.BiConsumer<Path, Object> onOpened)
    {
        for (final FilterFiles.Opened opened : FilterFiles.openAll(paths, FilterFactory::checkStructure))
        {
            if (opened.file() == null)
            {
                onOpened.accept(opened.path(), opened.failure());
                continue;
            }
            ChangeLog log = null;
            try
            {
                log = OwnLog.wanted(opened.path(), sync) ? OwnLog.open(opened.path(), 0, false) : null;
                onOpened.accept(opened.path(), wrapOpened(opened.file(), false,
                    log == null ? SyncMode.UNTRACKED : sync, log, log != null, wallClock));
            }
            catch (final RuntimeException e)
            {
                if (log != null)
                {
                    log.close();
                }
                opened.file().close();
                onOpened.accept(opened.path(), e);
            }
        }
    }

    private static MappedFilter wrapOpened(final FilterFile file, final boolean singleWriter, final SyncMode sync,
        final ChangeLog log, final boolean ownsLog, final FilterClock wallClock)
    {
        final Path path = file.path();
        final KindDefinition definition;
        final long[] slots;
        try
        {
            definition = definitionOf(file.spec(), path);
            slots = slotsOf(file.spec(), definition, path);
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
        return wrap(file, definition, slots, true, singleWriter, sync, log, ownsLog, wallClock);
    }

    /**
     * @param spec a header.
     * @param path the file, for messages.
     * @return the definition of the kind it names, whose hash this version knows.
     * @throws FilterFileException (UNSUPPORTED_VERSION) when the header names an unknown kind or hash.
     */
    public static KindDefinition definitionOf(final FilterFileSpec spec, final Path path)
    {
        final KindDefinition definition = FilterKinds.definition(spec.kind());
        final String unknown = definition == null ? "unknown filter kind code " + spec.kind() :
            spec.hashAlgorithm() != ElementHasher.XXH3 && spec.hashAlgorithm() != ElementHasher.SIPHASH24_KEYED ?
            "unknown hash algorithm code " + spec.hashAlgorithm() : null;
        if (unknown != null)
        {
            throw new FilterFileException(FilterFileException.Reason.UNSUPPORTED_VERSION, path,
                unknown + ": made by a newer ddf?", new IllegalArgumentException(unknown));
        }
        return definition;
    }

    /**
     * Reads and checks the parameter slots a header holds.
     *
     * @param spec       the header.
     * @param definition the kind it names.
     * @param path       the file, for messages.
     * @return the slots, one per parameter of the definition.
     * @throws FilterFileException (CORRUPT) when they are inconsistent.
     */
    public static long[] slotsOf(final FilterFileSpec spec, final KindDefinition definition, final Path path)
    {
        try
        {
            final long[] slots = Arrays.copyOf(spec.params(), definition.params().size());
            for (int i = slots.length; i < spec.params().length; i++)
            {
                if (spec.params()[i] != 0)
                {
                    throw new IllegalArgumentException("parameter slot " + i + " is set but " + definition.name() +
                        " has " + slots.length + " parameters");
                }
            }
            definition.check(slots);
            if (definition.tableBytes(slots) != spec.tableLength())
            {
                throw new IllegalArgumentException("table of " + spec.tableLength() + " bytes where the parameters " +
                    "need " + definition.tableBytes(slots));
            }
            return slots;
        }
        catch (final IllegalArgumentException e)
        {
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path,
                "header parameters are inconsistent: " + e.getMessage(), e);
        }
    }

    /**
     * The structure check of a file whose checksum cannot vouch for its table (it was not closed cleanly, or its
     * format has none): the counters' invariants, then the kind's ({@link KindDefinition#checkStructure}).
     *
     * @param file an open file (for writing or reading only); read only.
     * @throws IllegalArgumentException naming the first violation.
     * @throws FilterFileException      when the header names an unknown kind or inconsistent parameters.
     */
    public static void checkStructure(final FilterFile file)
    {
        final KindDefinition definition = definitionOf(file.spec(), file.path());
        final long[] slots = slotsOf(file.spec(), definition, file.path());
        if (file.stateLength() < FilterCounters.LENGTH + KindDefinition.HEADER_STATE_WORDS * Long.BYTES)
        {
            throw new IllegalArgumentException("state region of " + file.stateLength() + " bytes is too small");
        }
        FilterCounters.checkStructure(file.stateAddress());
        definition.checkStructure(slots, new MappedWords(file.tableAddress(), file.tableLength() / Long.BYTES),
            new MappedWords(file.stateAddress() + FilterCounters.LENGTH, KindDefinition.HEADER_STATE_WORDS));
    }

    /**
     * Checks a file without opening it for writing: header, then the table checksum of a sealed file or the
     * structure of an unsealed one. Changes nothing, takes no lock.
     *
     * @param path the file.
     * @return what was checked and found, one "name: value" per entry, in order.
     * @throws FilterFileException naming the file and the first thing found wrong.
     */
    public static java.util.Map<String, String> verify(final Path path)
    {
        // only a regular file is read for its magic: opening a FIFO would block (FilterFile refuses it below)
        if (java.nio.file.Files.isRegularFile(path) && io.ddf.engine.scaling.ChainFile.familyOf(path) != 0)
        {
            return io.ddf.engine.scaling.ChainVerify.verify(path); // a filter that grows (.ddfs)
        }
        final java.util.Map<String, String> report = new java.util.LinkedHashMap<>();
        try (FilterFile file = FilterFile.openReadOnly(path))
        {
            report.put("file", path.toString());
            report.put("format", file.majorVersion() + "." + file.minorVersion());
            report.put("header", "ok (checksum matches, fields valid, length " + file.fileLength() + " bytes)");
            final KindDefinition definition = definitionOf(file.spec(), path);
            slotsOf(file.spec(), definition, path);
            report.put("kind", definition.name());
            switch (file.tableCheck())
            {
                case CHECKSUM_VERIFIED:
                    report.put("sealed", "yes (closed cleanly)");
                    if (!file.checksumMatches())
                    {
                        throw new FilterFileException(FilterFileException.Reason.CORRUPT, path,
                            "table checksum mismatch: the file was closed cleanly with checksum 0x" +
                            Long.toHexString(file.storedChecksum()) + " but its table and state no longer match it");
                    }
                    report.put("table checksum", "ok");
                    break;
                case NOT_SEALED:
                    report.put("sealed", "no (not closed cleanly: a crash, or open in a process now)");
                    report.put("table checksum", file.storedChecksum() == 0 ? "none written yet" :
                        file.checksumMatches() ? "matches the last flush" : "differs from the last flush " +
                        "(expected when the filter changed since)");
                    StructureCheck.run(file, FilterFactory::checkStructure);
                    report.put("structure", "ok");
                    break;
                default:
                    report.put("sealed", "no (format " + file.majorVersion() + "." + file.minorVersion() +
                        " has no table checksum)");
                    StructureCheck.run(file, FilterFactory::checkStructure);
                    report.put("structure", "ok");
                    break;
            }
        }
        return report;
    }

    private static MappedFilter wrap(final FilterFile file, final KindDefinition definition, final long[] slots,
        final boolean reopened, final boolean singleWriter, final SyncMode requested, final ChangeLog log,
        final boolean ownsLog, final FilterClock wallClock)
    {
        try
        {
            if (file.stateLength() < FilterCounters.LENGTH + KindDefinition.HEADER_STATE_WORDS * Long.BYTES)
            {
                throw new FilterFileException(FilterFileException.Reason.CORRUPT, file.path(),
                    "state region of " + file.stateLength() + " bytes is too small");
            }
            // Single-writer mode is the cores' words being owned: their compare-and-swaps and atomic adds become
            // plain loads and release stores, so every kind gets it without a second implementation.
            final MappedWords table = new MappedWords(file.tableAddress(), file.tableLength() / Long.BYTES,
                singleWriter);
            final MappedWords headerState = new MappedWords(file.stateAddress() + FilterCounters.LENGTH,
                KindDefinition.HEADER_STATE_WORDS, singleWriter);
            final FilterCore core = definition.core(slots, table, headerState,
                wallClock == null ? CoarseClock.SYSTEM : wallClock);
            // An anonymous file is gone at close: nothing of it is worth logging.
            final boolean logged = log != null && !file.temporary();
            final TimedCore timeAfterReplay = logged && reopened && core instanceof TimedCore timed ? timed : null;
            if (timeAfterReplay != null)
            {
                timeAfterReplay.deferOpenTime(); // the records turned generations at their times: replayed first
            }
            if (reopened && tornPossible(file))
            {
                core.recoverTorn();
            }
            else if (reopened)
            {
                core.recover();
            }
            final FilterLog filterLog = logged ? attach(file, definition, core, log, reopened) : null;
            if (filterLog != null && core instanceof LoggedCore loggedCore)
            {
                loggedCore.recordTo(filterLog);
            }
            if (timeAfterReplay != null)
            {
                timeAfterReplay.openTime(); // its turns recorded in the log
            }
            final MappedFilter filter = new MappedFilter(file, definition, slots, core, singleWriter,
                logged ? requested : SyncMode.UNTRACKED, filterLog, logged && ownsLog);
            if (filterLog != null && ownsLog)
            {
                LogScheduler.register(filterLog, requested == SyncMode.LOG_EVERYSEC, filter::checkpoint);
            }
            if (!logged && ownsLog && log != null)
            {
                log.close();
            }
            return filter;
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
    }

    /**
     * @return whether the file may hold pages of different moments: not closed cleanly, and not by a process of the
     *         kernel running now (its boot id, stored at its last open, differs or was never stored).
     */
    private static boolean tornPossible(final FilterFile file)
    {
        if (file.tableCheck() == FilterFile.TableCheck.CHECKSUM_VERIFIED || file.temporary())
        {
            return false;
        }
        final java.util.UUID boot = io.ddf.persistence.log.BootId.current();
        return io.ddf.persistence.log.BootId.unknown(boot) || !boot.equals(new LogBinding(file.headerAddress(),
            LogBinding.FILTER_FILE_OFFSET, file::forceHeader).bootId());
    }

    /** The open path's decision and replay (FORMAT-LOG.md), said in the log when there was something to say. */
    private static FilterLog attach(final FilterFile file, final KindDefinition definition, final FilterCore core,
        final ChangeLog log, final boolean reopened)
    {
        final FilterLog.Found found = !reopened ? FilterLog.Found.CREATED :
            file.tableCheck() == FilterFile.TableCheck.CHECKSUM_VERIFIED ? FilterLog.Found.SEALED :
            FilterLog.Found.NOT_SEALED;
        final FilterCounters counters = new FilterCounters(file.stateAddress(), file.stateLength());
        final FilterLog filterLog = FilterLog.attach(log, new LogBinding(file.headerAddress(),
            LogBinding.FILTER_FILE_OFFSET, file::forceHeader), found,
            ReplayTarget.of(frame -> MappedReplay.replay(core, counters, definition, frame),
                (op, aux, hash) -> MappedReplay.touch(core, op, hash), MappedReplay.lanes(core, counters)),
            file::forcePages);
        final Recovery.Outcome outcome = filterLog.recovery().outcome();
        if (outcome == Recovery.Outcome.REPLAYED || outcome == Recovery.Outcome.NO_LOG ||
            outcome == Recovery.Outcome.SAME_BOOT)
        {
            LOG.log(outcome == Recovery.Outcome.NO_LOG ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                "ddf: " + file.path() + ": " + filterLog.recovery().describe());
        }
        return filterLog;
    }
}
