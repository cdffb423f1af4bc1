package io.ddf.engine;

import java.util.List;

/** Contract-test configurations of the cuckoo family (to be filled in as its kinds are implemented). */
final class CuckooConfigs
{
    private CuckooConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of();
    }
}
