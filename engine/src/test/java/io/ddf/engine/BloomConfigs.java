package io.ddf.engine;

import java.util.List;

/** Contract-test configurations of the bloom family (to be filled in as its kinds are implemented). */
final class BloomConfigs
{
    private BloomConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of();
    }
}
