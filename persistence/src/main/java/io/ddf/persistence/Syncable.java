package io.ddf.persistence;

import java.nio.file.Path;

/**
 * A filter file whose changes can be forced to the device on demand: what a sync policy's group commit
 * ({@code serve --fsync always}) and the once-a-second cycle ({@code everysec}) force, whatever the filter's kind (a
 * fixed-size {@code DuplicateFilter}, or a filter that grows: a scaling Bloom chain, a cuckoo filter).
 */
public interface Syncable
{
    /**
     * Forces what changed since the last sync to the device; returns once every change made before the call is on
     * it. Cheap when nothing changed. Safe from any thread while others write.
     *
     * @return a count of what was forced (its unit is the kind's), or -1 when nothing needed forcing.
     * @throws FilterFileException when the sync fails (the changes stay to be synced).
     */
    long sync();

    /** @return the file, for messages; null when anonymous. */
    Path path();
}
