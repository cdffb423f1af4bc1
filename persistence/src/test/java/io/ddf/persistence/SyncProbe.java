package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * Run in a second JVM by {@link SyncChangesTest} on the power-cut file system: creates a filter file, changes a
 * table word and syncs, syncs again with nothing changed (bringing the header's last sync time up to date), changes
 * another word far away without a sync, prints {@code SYNCED <durableSince>} and waits to be killed.
 */
public final class SyncProbe
{
    /** Table offset of the word written before the sync. */
    static final int SYNCED_OFFSET = 8;
    /** Table offset of the word written after it, pages away. */
    static final int LOST_OFFSET = 96 * 1024;

    private SyncProbe()
    {
    }

    /**
     * @param args the file to create.
     * @throws Exception when something fails (the test then sees no SYNCED line).
     */
    public static void main(final String[] args) throws Exception
    {
        final FilterFile file = FilterFile.create(Path.of(args[0]), TestFiles.smallSpec());
        final DirtyPages dirty = file.trackChanges();
        final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
        table.putLongVolatile(SYNCED_OFFSET, 4711);
        dirty.mark(file.tableAddress() + SYNCED_OFFSET);
        final long pages = file.syncChanges(() -> false);
        final long headerOnly = file.syncChanges(() -> false);
        final long nothing = file.syncChanges(() -> false);
        table.putLongVolatile(LOST_OFFSET, 815);
        dirty.mark(file.tableAddress() + LOST_OFFSET);
        System.out.println("SYNCED " + file.durableSince() + " " + pages + " " + headerOnly + " " + nothing);
        System.out.flush();
        while (System.in.read() >= 0)
        {
            Thread.onSpinWait();
        }
        file.close();
    }
}
