package io.ddf.ingest.info;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.store.FilterStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The INFO sections Redis users and their monitoring look for beyond the basics: {@code commandstats},
 * {@code memory} and {@code persistence}, as section name (lower case) to lines, rendered as {@code # Name}
 * sections at the end of INFO so that section selection ({@code INFO memory}) finds them by their headers.
 * As in Redis, a bare {@code INFO} leaves {@code commandstats} out ({@link InfoSections}): it is in
 * {@code INFO all}, {@code INFO everything} and {@code INFO commandstats}.
 */
final class InfoExtras
{
    private final CommandTable commands;
    private final FilterStore store;

    /**
     * @param commands what the daemon serves, each with its counters.
     * @param store    the filters.
     */
    InfoExtras(final CommandTable commands, final FilterStore store)
    {
        this.commands = commands;
        this.store = store;
    }

    /** @return every section, in Redis's order (memory, persistence, commandstats). */
    Map<String, List<String>> sections()
    {
        long fileBytes = 0;
        int files = 0;
        final FilterStore.Lease all = store.leaseAll();
        try
        {
            for (final DuplicateFilter filter : store.snapshot().values())
            {
                fileBytes += size(filter.path());
                files++;
            }
        }
        finally
        {
            all.close();
        }
        final Map<String, List<String>> sections = new LinkedHashMap<>();
        sections.put("memory", memory(fileBytes));
        final List<String> persistence = new ArrayList<>(persistence(files, fileBytes));
        persistence.addAll(store.durability().infoLines());
        sections.put("persistence", persistence);
        sections.put("commandstats", commandStats());
        return sections;
    }

    /**
     * @param sections sections by name.
     * @return them as INFO text ({@code # Name} then {@code field:value} lines, a blank line between).
     */
    static String render(final Map<String, List<String>> sections)
    {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<String, List<String>> section : sections.entrySet())
        {
            text.append("\r\n# ").append(Character.toUpperCase(section.getKey().charAt(0)))
                .append(section.getKey().substring(1)).append("\r\n");
            section.getValue().forEach(line -> text.append(line).append("\r\n"));
        }
        return text.toString();
    }

    private static long size(final Path path)
    {
        try
        {
            return path == null ? 0 : Files.size(path);
        }
        catch (final IOException e)
        {
            return 0; // deleted under us: it no longer holds memory
        }
    }

    /**
     * Redis's used_memory is what its allocator holds; a ddf daemon's memory is its JVM heap plus the mapped
     * filter files (the data set, paged in by the kernel), so used_memory is their sum and both are shown.
     */
    private static List<String> memory(final long mapped)
    {
        final Runtime runtime = Runtime.getRuntime();
        final long heap = runtime.totalMemory() - runtime.freeMemory();
        final long used = heap + mapped;
        final List<String> lines = new ArrayList<>();
        lines.add("used_memory:" + used);
        lines.add("used_memory_human:" + human(used));
        lines.add("used_memory_heap:" + heap);
        lines.add("used_memory_mapped:" + mapped);
        lines.add("used_memory_dataset:" + mapped);
        final long rss = residentBytes();
        if (rss >= 0)
        {
            lines.add("used_memory_rss:" + rss);
            lines.add("used_memory_rss_human:" + human(rss));
        }
        lines.add("heap_max:" + runtime.maxMemory());
        // ddf never evicts on memory: filters have a fixed size and forget by their own rule
        lines.add("maxmemory:0");
        lines.add("maxmemory_policy:noeviction");
        lines.add("mem_allocator:jvm+mmap");
        return lines;
    }

    /** Resident set size from /proc (Linux), or -1 where there is none. */
    private static long residentBytes()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
        return -1;
    }

    /**
     * ddf has no snapshot: every change is written into the filter's mapped file as it is made (a process crash
     * loses nothing acknowledged), so nothing is pending a save and no save is running. What a power cut may take
     * follows serve --fsync and its change log; {@link Durability#infoLines()} adds their lines (the aof_ ones).
     */
    private static List<String> persistence(final int files, final long fileBytes)
    {
        return List.of("loading:0", "async_loading:0", "rdb_changes_since_last_save:0", "rdb_bgsave_in_progress:0",
            "rdb_last_bgsave_status:ok",
            "ddf_storage:memory-mapped files, one per filter", "ddf_filter_files:" + files,
            "ddf_filter_file_bytes:" + fileBytes);
    }

    /** Redis 7's lines, for each command run or rejected at least once. */
    private List<String> commandStats()
    {
        final List<String> lines = new ArrayList<>();
        for (final Command command : commands.all())
        {
            final long calls = command.calls();
            final long rejected = command.rejectedCalls();
            if (calls == 0 && rejected == 0)
            {
                continue;
            }
            final long usec = command.nanos() / 1000;
            lines.add(String.format(Locale.ROOT,
                "cmdstat_%s:calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=%d,failed_calls=%d",
                command.name(), calls, usec, calls == 0 ? 0.0 : (double)usec / calls, rejected, command.failedCalls()));
        }
        return lines;
    }

    private static String human(final long bytes)
    {
        if (bytes < 1024)
        {
            return bytes + "B";
        }
        final int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
        return String.format(Locale.ROOT, "%.2f%c", bytes / (double)(1L << (unit * 10)), " KMGTPE".charAt(unit));
    }
}
