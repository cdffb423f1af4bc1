package io.ddf.persistence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Closing a filter file unmaps it: a deleted file's blocks are freed only once no mapping holds them (issue 12).
 * Both failed before MappedRegion released the store's last reservation: the mapping stayed in /proc/self/maps
 * after close, after BackgroundResourceReleaser.releasePendingResources() and after a GC.
 */
class UnmapTest
{
    @TempDir
    Path dir;

    private static List<String> mappings(final String text) throws IOException
    {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(text)).toList();
    }

    @Test
    void closeUnmapsACreatedFile() throws IOException
    {
        final Path path = dir.resolve("created-x.ddf");
        final FilterFile file = FilterFile.create(path, TestFiles.smallSpec());
        assertFalse(mappings("created-x").isEmpty());
        file.close();
        assertEquals(List.of(), mappings("created-x"));
    }

    @Test
    void closeUnmapsAnOpenedFile() throws IOException
    {
        final Path path = dir.resolve("opened-x.ddf");
        FilterFile.create(path, TestFiles.smallSpec()).close();
        final FilterFile file = FilterFile.open(path);
        assertFalse(mappings("opened-x").isEmpty());
        file.close();
        assertEquals(List.of(), mappings("opened-x.ddf"));
    }
}
