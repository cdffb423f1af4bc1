package io.ddf.persistence.platform;

import java.lang.invoke.VarHandle;

/**
 * A store-load fence split between a frequent side and a rare one, so that the frequent side pays no locked
 * instruction: {@link #light()} on the frequent side (a call on a filter announcing itself before it checks whether
 * the filter is closing) and {@link #heavy()} on the rare side (a close, between marking the filter closing and
 * reading which calls are in flight). Together they order, as a full fence on both sides would, a store made before
 * {@code light()} against a load made after it, as seen from the thread that ran {@code heavy()}.
 *
 * <p>How (the technique of Linux's user-space RCU and of Folly's asymmetric fences): {@code heavy()} is the
 * {@code membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)} system call, which runs a full barrier on every CPU that runs a
 * thread of this process (a thread not running has passed one at its last context switch); {@code light()} need then
 * only keep the compiler from moving the load above the store: {@link VarHandle#releaseFence()}, which C2 compiles to
 * a memory barrier node no access crosses and x86 to no instruction at all (on aarch64 a {@code dmb}). So for every
 * thread, either its store was visible when {@code heavy()} returned, or its load came after the barrier and saw what
 * the heavy side had stored before calling it.
 *
 * <p>Where membarrier is missing (not Linux x86_64/aarch64, a kernel before 4.14, a seccomp filter that refuses it,
 * no JNA), {@code light()} is a full fence ({@link VarHandle#fullFence()}, a locked instruction on x86) and
 * {@code heavy()} one too: still correct, at the frequent side's cost. {@link #lightIsFree()} says which;
 * {@code -Dddf.fence.full=true} asks for the portable way where membarrier works (to test it, or to rule it out).
 */
public final class AsymmetricFence
{
    private static final int MEMBARRIER_CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final int MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;
    /** The slow, registration-free command: a fallback should the expedited one ever fail after registering. */
    private static final int MEMBARRIER_CMD_GLOBAL = 1;

    /** Whether this process registered for expedited membarriers, so that light() may be a compiler barrier. */
    private static final boolean MEMBARRIER = register();

    private AsymmetricFence()
    {
    }

    private static boolean register()
    {
        if (Boolean.getBoolean("ddf.fence.full"))
        {
            return false; // the portable way, asked for (tests of the fallback)
        }
        try
        {
            return Libc.available() && Libc.membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
                Libc.membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
        }
        catch (final LinkageError | RuntimeException unavailable)
        {
            return false;
        }
    }

    /** @return whether {@link #light()} costs no instruction on x86 (membarrier is available), or is a full fence. */
    public static boolean lightIsFree()
    {
        return MEMBARRIER;
    }

    /** The frequent side: between a store that announces this thread and a load that checks the rare side's flag. */
    public static void light()
    {
        if (MEMBARRIER)
        {
            VarHandle.releaseFence();
        }
        else
        {
            VarHandle.fullFence();
        }
    }

    /**
     * The rare side: between a store of its flag and the loads of what the frequent sides announced. Takes a system
     * call (microseconds; an interrupt to each CPU running this process).
     *
     * @throws IllegalStateException when membarrier, once registered, fails both ways (never seen; the caller must
     *                               not then trust the loads that follow).
     */
    public static void heavy()
    {
        VarHandle.fullFence();
        if (MEMBARRIER && Libc.membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
            Libc.membarrier(MEMBARRIER_CMD_GLOBAL) != 0)
        {
            throw new IllegalStateException("membarrier failed after it was registered: threads' announcements " +
                "cannot be read safely");
        }
    }
}
