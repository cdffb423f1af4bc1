package io.ddf.engine;

import io.ddf.engine.internal.FilterCounters;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFileSnapshot;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Describes a filter file without opening it for writing or changing a byte of it. */
public final class FilterInfo
{
    private FilterInfo()
    {
    }

    /**
     * @param path a filter file.
     * @return its format version, creation time, kind, parameters and counters, by name, in a stable order.
     * @throws io.ddf.persistence.FilterFileException when the file is not a valid filter file.
     */
    public static Map<String, String> describe(final Path path)
    {
        final FilterFileSnapshot snapshot = FilterFile.inspect(path);
        final FilterParameters parameters = FilterParameters.ofHeader(snapshot.spec(), path);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("file", path.toString());
        map.put("format-version", snapshot.majorVersion() + "." + snapshot.minorVersion());
        map.put("created", Instant.ofEpochMilli(snapshot.createdMillis()).toString());
        map.put("file-bytes", Long.toString(snapshot.fileLength()));
        map.putAll(parameters.toMap());
        final long elements = FilterCounters.sum(snapshot.state(), false);
        final long duplicates = FilterCounters.sum(snapshot.state(), true);
        map.put("elements", Long.toString(elements));
        map.put("duplicates", Long.toString(duplicates));
        map.put("unseen", Long.toString(elements - duplicates));
        return map;
    }
}
