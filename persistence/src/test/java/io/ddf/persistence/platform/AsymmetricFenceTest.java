package io.ddf.persistence.platform;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The asymmetric fence's light side is free wherever this kernel offers expedited membarriers (Linux 4.14 on): a
 * binding that silently fell back to full fences would cost every call on a filter a locked instruction.
 */
class AsymmetricFenceTest
{
    private static final int MEMBARRIER_CMD_QUERY = 0;
    private static final int MEMBARRIER_CMD_PRIVATE_EXPEDITED = 1 << 3;

    @Test
    void lightSideIsFreeWhereTheKernelOffersExpeditedMembarriers()
    {
        final boolean offered = !Boolean.getBoolean("ddf.fence.full") && Libc.available() &&
            (Libc.membarrier(MEMBARRIER_CMD_QUERY) & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0;
        assertEquals(offered, AsymmetricFence.lightIsFree(), "membarrier offered: " + offered);
    }
}
