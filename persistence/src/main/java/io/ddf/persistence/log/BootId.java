package io.ddf.persistence.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The running kernel's boot id ({@code /proc/sys/kernel/random/boot_id}, a random UUID drawn at each boot): kept in a
 * filter's header at open, it tells the next open whether only the process died since (the same id: the page cache
 * kept every store, nothing to replay) or the machine went down (another id: replay the log from the checkpoint).
 *
 * <p>Tests inject another id with the system property {@value #PROPERTY} (a UUID), read at each call, so that a
 * "reboot" needs no reboot. Where the kernel has no such file (not Linux), the id is all zeros: every open of a file
 * not closed cleanly then replays, which is correct, only slower.
 */
public final class BootId
{
    /** A UUID that replaces the kernel's boot id (tests). */
    public static final String PROPERTY = "ddf.boot-id";
    private static final Path KERNEL = Path.of("/proc/sys/kernel/random/boot_id");
    private static final UUID KERNEL_ID = read();
    private static final UUID NONE = new UUID(0, 0);

    private BootId()
    {
    }

    /** @return the boot id now: the property's when set, else the kernel's (all zeros when unknown). */
    public static UUID current()
    {
        final String injected = System.getProperty(PROPERTY);
        return injected == null || injected.isBlank() ? KERNEL_ID : UUID.fromString(injected.trim());
    }

    /** @return whether the id is the unknown one (all zeros). */
    public static boolean unknown(final UUID id)
    {
        return NONE.equals(id);
    }

    private static UUID read()
    {
        try
        {
            return UUID.fromString(new String(Files.readAllBytes(KERNEL), StandardCharsets.US_ASCII).trim());
        }
        catch (final IOException | IllegalArgumentException | SecurityException e)
        {
            return NONE;
        }
    }
}
